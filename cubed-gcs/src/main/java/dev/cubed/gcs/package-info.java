/**
 * A Google Cloud Storage store for Cubed: {@code gs://bucket/prefix} locations for inputs, outputs
 * and the work directory of intermediates ({@link dev.cubed.gcs.GcsStore}, found by {@link
 * dev.cubed.zarr.store.Stores#open} through {@link dev.cubed.gcs.GcsStoreProvider}). See
 * docs/gcs.md.
 */
package dev.cubed.gcs;
