package dev.cubed.zarr;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The creation state of a described (deferred) {@link ZarrArray} ({@link
 * ZarrArrayBuilder#buildDeferred()}): its overwrite flag, and whether this description already
 * created its array in the store (it may then replace that array later, whatever the flag). Shared
 * by the copies of one description ({@link ZarrArray#withAttributes} and the like); safe to use
 * from several threads.
 */
final class DeferredCreation {
  private final boolean overwrite;
  private final AtomicBoolean created = new AtomicBoolean();

  DeferredCreation(boolean overwrite) {
    this.overwrite = overwrite;
  }

  /** The overwrite flag, or true once this description created its array. */
  boolean overwrite() {
    return overwrite || created.get();
  }

  /** Records that this description's array now exists. */
  void markCreated() {
    created.set(true);
  }

  /**
   * Creates (or with {@code checkOnly} only checks the creation of) {@code z}, this description, in
   * its store by {@link ZarrArray#createInStore(boolean)}'s rules, and records the creation.
   *
   * @throws IllegalArgumentException if the path holds data that may not be replaced
   */
  ZarrArray create(ZarrArray z, boolean resume, boolean checkOnly) {
    ZarrArray out = ZarrNodes.create(z, overwrite(), resume, checkOnly);
    if (!checkOnly) {
      created.set(true);
    }
    return out;
  }
}
