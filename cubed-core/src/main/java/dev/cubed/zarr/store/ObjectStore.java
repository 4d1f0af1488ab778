package dev.cubed.zarr.store;

import java.io.Serializable;
import java.util.Objects;

/**
 * Base of the object-store plugins ({@code cubed-s3}, {@code cubed-gcs}, {@code cubed-azure}): a
 * {@link Store} on one bucket (or container) of an object service, rooted at an object-name prefix,
 * so that store key {@code k} is the object {@code prefix + k}.
 *
 * <p>It holds the bucket, the prefix and the service's settings, all serializable and without
 * credentials (a store that travels to another JVM builds its client there). Two stores are equal
 * when they are of the same class with equal bucket, prefix and settings; {@link #toString()} is
 * {@link #describe()}.
 *
 * @param <S> the settings: how the service is reached
 */
public abstract class ObjectStore<S extends Serializable> implements Store {
  private static final long serialVersionUID = 1L;

  /** The bucket (or container), checked by the subclass. */
  protected final String bucket;

  /** "" or an object-name prefix ending with '/' (see {@link ObjectStores#rootPrefix}). */
  protected final String prefix;

  /** How the service is reached. */
  protected final S settings;

  /**
   * A store on {@code bucket} under {@code prefix}, both already checked.
   *
   * @throws NullPointerException if {@code settings} is null
   */
  protected ObjectStore(String bucket, String prefix, S settings) {
    this.bucket = bucket;
    this.prefix = prefix;
    this.settings = Objects.requireNonNull(settings);
  }

  /** The bucket (the container, for Azure). */
  public String bucket() {
    return bucket;
  }

  /** The object-name prefix ("" or ending with '/'). */
  public String prefix() {
    return prefix;
  }

  /** How the service is reached. */
  public S settings() {
    return settings;
  }

  /**
   * The object name of a store key: the prefix and the key.
   *
   * @throws IllegalArgumentException for a malformed key ({@link Stores#checkKey})
   */
  protected String objectName(String key) {
    return prefix + Stores.checkKey(key);
  }

  /** The store key of an object name under the prefix (the name without the prefix). */
  protected String keyOf(String objectName) {
    return objectName.substring(prefix.length());
  }

  @Override
  public boolean equals(Object o) {
    return o != null
        && o.getClass() == getClass()
        && ((ObjectStore<?>) o).bucket.equals(bucket)
        && ((ObjectStore<?>) o).prefix.equals(prefix)
        && ((ObjectStore<?>) o).settings.equals(settings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(bucket, prefix, settings);
  }

  /** {@link #describe()}. */
  @Override
  public String toString() {
    return describe();
  }
}
