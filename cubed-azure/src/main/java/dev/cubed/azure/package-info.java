/**
 * Azure Blob Storage for Cubed: {@code az://container/path} (and {@code abfs://}) locations for
 * inputs, targets and work directories through the Azure SDK ({@link dev.cubed.azure.AzureStore}).
 */
package dev.cubed.azure;
