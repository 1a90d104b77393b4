package dev.saferetry.filestore;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system mounted for one test, to run out of space for real. Two kinds:
 *
 * <ul>
 *   <li>{@link #tmpfs}: writes fail with "No space left on device" once it is full;
 *   <li>{@link #ext4OnFullableDevice}: an ext4 file system (no journal) on a loop device whose
 *       backing file lives on a small tmpfs. Filling that tmpfs makes the device's writes fail, so
 *       writes into the page cache still succeed and it is the <em>sync</em> that fails — the
 *       failure after which the kernel may have dropped the data.
 * </ul>
 *
 * <p>Needs root (mount, losetup); a test is skipped with a message where that is not possible. Not
 * thread-safe.
 */
final class SmallFileSystem implements AutoCloseable {
  private final Path outer;
  private final Path inner;
  private final String loopDevice;
  private final Path filler;

  private SmallFileSystem(Path outer, Path inner, String loopDevice) {
    this.outer = outer;
    this.inner = inner;
    this.loopDevice = loopDevice;
    this.filler = outer.resolve("filler");
  }

  /** Mounts a tmpfs of {@code size} (e.g. {@code "256k"}) under {@code parent}. */
  static SmallFileSystem tmpfs(Path parent, String size) throws Exception {
    Path mount = Files.createDirectory(parent.resolve("tmpfs"));
    assumeRoot();
    int rc =
        run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", mount.toString());
    assumeTrue(rc == 0, "cannot mount a tmpfs here (needs root and mount rights); skipped");
    return new SmallFileSystem(mount, mount, null);
  }

  /** Mounts an ext4 file system whose device fails writes when {@link #fill} is called. */
  static SmallFileSystem ext4OnFullableDevice(Path parent) throws Exception {
    assumeRoot();
    Path outer = Files.createDirectory(parent.resolve("device"));
    Path inner = Files.createDirectory(parent.resolve("ext4"));
    int rc = run("mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", outer.toString());
    assumeTrue(rc == 0, "cannot mount a tmpfs here (needs root and mount rights); skipped");
    Path image = outer.resolve("image");
    String loop = null;
    try {
      assumeTrue(run("truncate", "-s", "64m", image.toString()) == 0, "no truncate(1); skipped");
      assumeTrue(
          run("mkfs.ext4", "-q", "-F", "-O", "^has_journal", image.toString()) == 0,
          "no mkfs.ext4; skipped");
      loop = output("losetup", "-f", "--show", image.toString());
      assumeTrue(loop != null && loop.startsWith("/dev/"), "no loop devices here; skipped");
      rc = run("mount", "-o", "errors=continue", loop, inner.toString());
      assumeTrue(rc == 0, "cannot mount the ext4 image; skipped");
      Files.setPosixFilePermissions(inner, PosixFilePermissions.fromString("rwx------"));
      return new SmallFileSystem(outer, inner, loop);
    } catch (Exception | Error e) {
      if (loop != null) {
        run("losetup", "-d", loop);
      }
      run("umount", outer.toString());
      throw e;
    }
  }

  private static void assumeRoot() throws Exception {
    assumeTrue("0".equals(output("id", "-u")), "needs root to mount a small file system; skipped");
  }

  /** The directory of the small file system where the store lives. */
  Path root() {
    return inner;
  }

  /** Uses up every free byte of the device (of the tmpfs itself, or under the ext4 image). */
  void fill() throws IOException {
    byte[] chunk = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
        out.flush();
      }
    } catch (IOException full) {
      // "No space left on device": exactly what was wanted
    }
    try (OutputStream out = Files.newOutputStream(filler, StandardOpenOption.APPEND)) {
      for (int i = 0; i < 4096; i++) {
        out.write(0); // fill the last partial page too
        out.flush();
      }
    } catch (IOException full) {
      // full to the last byte
    }
  }

  /** Gives the space back. */
  void free() throws IOException {
    Files.deleteIfExists(filler);
  }

  /** Unmounts and mounts the ext4 file system again, so that reads come from the device. */
  void remount() throws Exception {
    if (loopDevice == null) {
      throw new IllegalStateException("a tmpfs has no device to read from");
    }
    if (run("umount", inner.toString()) != 0
        || run("mount", "-o", "errors=continue", loopDevice, inner.toString()) != 0) {
      throw new IOException("cannot remount " + inner);
    }
  }

  /** Unmounts everything, lazily if a file is still open (a failed test must not leave mounts). */
  @Override
  public void close() throws IOException {
    try {
      if (loopDevice != null) {
        unmount(inner);
        run("losetup", "-d", loopDevice);
      }
      unmount(outer);
    } catch (IOException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while unmounting " + outer, e);
    } catch (Exception e) {
      throw new IOException("could not unmount " + outer, e);
    }
  }

  private static void unmount(Path mount) throws Exception {
    if (run("umount", mount.toString()) != 0) {
      run("umount", "-l", mount.toString());
    }
  }

  private static int run(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return -1; // the command does not exist here
    }
    p.getInputStream().readAllBytes();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  private static String output(String... command) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      return null; // the command does not exist here
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
  }
}
