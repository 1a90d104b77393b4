package dev.saferetry.benchmarks;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * An OkHttp application interceptor that answers every call itself with the fixed charge JSON,
 * after writing the request body out as the network would. With it the benchmark measures the
 * client's own CPU work — serialisation, headers, parsing, and in the SDK's case keys, fingerprint,
 * store and attempt bookkeeping — without a socket, which is far less noisy on a shared machine.
 *
 * <p>Stateless; thread-safe.
 */
final class InProcessAnswer implements Interceptor {
  private static final MediaType JSON = MediaType.get("application/json");

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    if (request.body() != null) {
      request.body().writeTo(new Buffer());
    }
    return new Response.Builder()
        .request(request)
        .protocol(Protocol.HTTP_1_1)
        .code(200)
        .message("OK")
        .header("Content-Type", "application/json")
        .body(ResponseBody.create(FixedResponseServer.CHARGE, JSON))
        .build();
  }
}
