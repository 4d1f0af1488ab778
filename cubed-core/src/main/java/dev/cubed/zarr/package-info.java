/**
 * Zarr storage: the layer every array of the engine lives in.
 *
 * <ul>
 *   <li>{@link dev.cubed.zarr.Store} — key-value storage with atomic puts and range reads; {@link
 *       dev.cubed.zarr.FileSystemStore}, {@link dev.cubed.zarr.MemoryStore}, {@link
 *       dev.cubed.zarr.Stores#open(String)} and the {@link dev.cubed.zarr.StoreProvider} plugin
 *       interface for other schemes.
 *   <li>{@link dev.cubed.zarr.ZarrArray} — an array of format 2 or 3: metadata, chunk and region
 *       reads and writes; created with {@link dev.cubed.zarr.ZarrArrayBuilder}, compressed with a
 *       {@link dev.cubed.zarr.Compression}.
 *   <li>{@link dev.cubed.zarr.ZarrGroup} — groups, their attributes and members.
 *   <li>{@link dev.cubed.zarr.ZarrFormatException} for invalid content and {@link
 *       dev.cubed.zarr.ZarrStoreException} for storage failures.
 * </ul>
 *
 * <p>What is supported, the defaults and the atomic-write and resume contract are described in
 * {@code docs/zarr.md}.
 */
package dev.cubed.zarr;
