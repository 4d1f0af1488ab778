/**
 * The stores, the bottom of the Zarr layer: {@link dev.cubed.zarr.store.Store} (key-value storage
 * with atomic puts and range reads), the file-system, memory and HTTP stores, the object-store base
 * of the cloud modules ({@link dev.cubed.zarr.store.ObjectStore}), {@link
 * dev.cubed.zarr.store.Stores#open(String)} with the {@link dev.cubed.zarr.store.StoreProvider}
 * plugin interface, keys, and the errors every Zarr layer raises: {@link
 * dev.cubed.zarr.store.ZarrFormatException} for invalid content, {@link
 * dev.cubed.zarr.store.ZarrStoreException} for storage failures. It knows no codec and no array.
 */
package dev.cubed.zarr.store;
