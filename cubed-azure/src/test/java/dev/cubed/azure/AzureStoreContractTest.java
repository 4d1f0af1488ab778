package dev.cubed.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.cubed.zarr.store.Store;
import dev.cubed.zarr.store.StoreContract;
import dev.cubed.zarr.store.Stores;
import dev.cubed.zarr.store.ZarrStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Store contract ({@link StoreContract}) on Azure Blob Storage against Azurite on 127.0.0.1,
 * plus what is Azure-specific: opening URIs, containers created on first write, serialization
 * without secrets, retries of 503 by the SDK's configured policy.
 */
@Tag("azure")
class AzureStoreContractTest extends StoreContract {
  static AzuriteServer server;
  static final AtomicInteger containers = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    server = AzuriteServer.start().useAsDefault();
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected Store freshStore(String name) {
    Store s = Stores.open("az://contract" + containers.incrementAndGet() + "/" + name);
    assertThat(s).isInstanceOf(AzureStore.class);
    return s;
  }

  @Override
  protected int writesPerThread() {
    return 10; // each write is a PUT to the server
  }

  @Override
  protected void checkPrefixIsNoValue(Store s) {
    assertThat(s.get("a")).isNull(); // a "directory" is no blob
    AzureStore a = (AzureStore) s;
    // the prefix isolates stores of one container
    assertThat(new AzureStore(a.container(), "", a.settings()).list(""))
        .containsExactlyElementsOf(s.list("").stream().map(k -> a.prefix() + k).toList());
  }

  @Test
  void urisOpenAndStoresSerializeWithoutSecrets() throws Exception {
    AzureStore s = (AzureStore) Stores.open("az://ser/sub/dir?max_attempts=4");
    assertThat(s.container()).isEqualTo("ser");
    assertThat(s.prefix()).isEqualTo("sub/dir/");
    assertThat(s.settings().attempts()).isEqualTo(4);
    assertThat(s.describe()).isEqualTo("az://ser/sub/dir/ at " + server.endpoint());
    assertThat(s.bufferCopies()).isEqualTo(2);
    assertThat(s.get("y")).isNull(); // the container does not exist yet: absent
    assertThat(s.list("")).isEmpty();
    s.put("y", new byte[] {2}); // creates the container
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (ObjectOutputStream oo = new ObjectOutputStream(bo)) {
      oo.writeObject(s);
    }
    assertThat(bo.toString(StandardCharsets.ISO_8859_1))
        .doesNotContain(AzuriteServer.KEY)
        .doesNotContain("AccountKey");
    Store back;
    try (ObjectInputStream oi = new ObjectInputStream(new ByteArrayInputStream(bo.toByteArray()))) {
      back = (Store) oi.readObject();
    }
    assertThat(back).isEqualTo(s);
    assertThat(back.get("y")).containsExactly(2);
    AzureStore abfs = (AzureStore) Stores.open("abfs://data@acct.dfs.core.windows.net/x/y");
    assertThat(abfs.container()).isEqualTo("data");
    assertThat(abfs.prefix()).isEqualTo("x/y/");
    assertThat(abfs.settings().account()).isEqualTo("acct");
    assertThatThrownBy(() -> Stores.open("az:///x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no container");
    assertThatThrownBy(() -> Stores.open("az://Bad_Name/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("container name 'Bad_Name'");
    assertThatThrownBy(() -> Stores.open("az://c1/x?colour=red"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("colour");
    assertThat(AzureSettings.redact("AccountKey=abc;BlobEndpoint=x?sv=1&sig=zzz&se=2"))
        .isEqualTo("AccountKey=***;BlobEndpoint=x?sv=1&sig=***&se=2");
  }

  @Test
  void serverErrorsAreRetriedByTheConfiguredPolicyThenReported() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpServer failing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    failing.createContext(
        "/",
        ex -> {
          requests.incrementAndGet();
          ex.getRequestBody().readAllBytes();
          byte[] body =
              ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code>"
                      + "<Message>The server is busy.</Message></Error>")
                  .getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "application/xml");
          ex.getResponseHeaders().set("x-ms-error-code", "ServerBusy");
          ex.sendResponseHeaders(503, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    failing.start();
    String cs =
        "DefaultEndpointsProtocol=http;AccountName="
            + AzuriteServer.ACCOUNT
            + ";AccountKey="
            + AzuriteServer.KEY
            + ";BlobEndpoint=http://127.0.0.1:"
            + failing.getAddress().getPort()
            + "/"
            + AzuriteServer.ACCOUNT
            + ";";
    System.setProperty(AzureSettings.CONNECTION_STRING_PROPERTY, cs);
    try {
      Store s = Stores.open("az://retry/x?max_attempts=3");
      assertThatThrownBy(() -> s.get("k"))
          .isInstanceOf(ZarrStoreException.class)
          .hasMessageContaining("Azure read of key 'k' of az://retry/x/")
          .hasMessageContaining("HTTP 503")
          .hasMessageContaining("3 attempts")
          .hasMessageNotContaining(AzuriteServer.KEY);
      assertThat(requests.get()).isEqualTo(3);
    } finally {
      server.useAsDefault();
      failing.stop(0);
    }
  }
}
