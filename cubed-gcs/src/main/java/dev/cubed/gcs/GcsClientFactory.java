package dev.cubed.gcs;

import com.google.cloud.storage.Storage;

/**
 * Builds the Cloud Storage client of {@code gs://} stores in place of the one {@link GcsStore}
 * builds from {@link GcsSettings} (JSON API transport, Application Default Credentials): a client
 * with other transport options or credentials, or an in-memory one in tests (Google's {@code
 * LocalStorageHelper}).
 *
 * <p>Named by class in the {@code client_factory} setting ({@code ?client_factory=} in the URI, the
 * system property {@code cubed.gcs.clientFactory} or the variable {@code
 * CUBED_GCS_CLIENT_FACTORY}); the class needs a public no-argument constructor and must be on the
 * classpath of every JVM that opens the store (the name travels with a serialized store, the client
 * does not). Each JVM calls {@link #create} once per distinct settings and shares the client
 * between the stores with those settings, from many threads.
 */
public interface GcsClientFactory {
  /**
   * The client for stores with these settings (its {@code clientFactory} is this class's name).
   *
   * @param settings the store's settings: endpoint, project, credentials choice and attempts, to
   *     honour or ignore as the factory sees fit
   */
  Storage create(GcsSettings settings);
}
