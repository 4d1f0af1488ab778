/**
 * Zarr storage: the layer every array of the engine lives in. This base package holds the arrays
 * and groups and their chunk reads and writes; it sits on three sub-layers, each using only those
 * below it ({@code ArchitectureTest}): {@link dev.cubed.zarr.metadata} (v2/v3 array metadata) over
 * {@link dev.cubed.zarr.codec} (codecs and their pipeline) over {@link dev.cubed.zarr.store} (the
 * stores).
 *
 * <ul>
 *   <li>{@link dev.cubed.zarr.store.Store} — key-value storage with atomic puts and range reads;
 *       {@link dev.cubed.zarr.store.FileSystemStore}, {@link dev.cubed.zarr.store.MemoryStore},
 *       {@link dev.cubed.zarr.store.Stores#open(String)} and the {@link
 *       dev.cubed.zarr.store.StoreProvider} plugin interface for other schemes.
 *   <li>{@link dev.cubed.zarr.ZarrArray} — an array of format 2 or 3: metadata, chunk and region
 *       reads and writes; created with {@link dev.cubed.zarr.ZarrArrayBuilder}, compressed with a
 *       {@link dev.cubed.zarr.codec.Compression}.
 *   <li>{@link dev.cubed.zarr.ZarrGroup} — groups, their attributes and members.
 *   <li>{@link dev.cubed.zarr.store.ZarrFormatException} for invalid content and {@link
 *       dev.cubed.zarr.store.ZarrStoreException} for storage failures.
 * </ul>
 *
 * <p>What is supported, the defaults and the atomic-write and resume contract are described in
 * {@code docs/zarr.md}.
 */
package dev.cubed.zarr;
