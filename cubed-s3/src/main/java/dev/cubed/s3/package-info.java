/**
 * An S3 store for Cubed: {@code s3://bucket/prefix} locations for inputs, outputs and the work
 * directory of intermediates ({@link dev.cubed.s3.S3Store}, found by {@link
 * dev.cubed.zarr.store.Stores#open} through {@link dev.cubed.s3.S3StoreProvider}). See docs/s3.md.
 */
package dev.cubed.s3;
