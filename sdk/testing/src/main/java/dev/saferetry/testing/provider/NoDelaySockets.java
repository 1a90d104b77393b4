package dev.saferetry.testing.provider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import javax.net.ServerSocketFactory;

/**
 * Server sockets whose connections send at once (TCP_NODELAY): MockWebServer writes an answer's
 * head and body separately, and without this each answer waits for the client's delayed
 * acknowledgement, about 40 ms on Linux.
 */
final class NoDelaySockets extends ServerSocketFactory {
  private static final class NoDelayServerSocket extends ServerSocket {
    NoDelayServerSocket() throws IOException {
      super();
    }

    @Override
    public Socket accept() throws IOException {
      Socket socket = super.accept();
      socket.setTcpNoDelay(true);
      return socket;
    }
  }

  @Override
  public ServerSocket createServerSocket() throws IOException {
    return new NoDelayServerSocket();
  }

  @Override
  public ServerSocket createServerSocket(int port) throws IOException {
    throw new UnsupportedOperationException("bound by MockWebServer");
  }

  @Override
  public ServerSocket createServerSocket(int port, int backlog) throws IOException {
    throw new UnsupportedOperationException("bound by MockWebServer");
  }

  @Override
  public ServerSocket createServerSocket(int port, int backlog, InetAddress address)
      throws IOException {
    throw new UnsupportedOperationException("bound by MockWebServer");
  }
}
