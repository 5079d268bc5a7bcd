import java.io.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.nio.file.attribute.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.stream.Stream;
import java.util.zip.*;

/**
 * The native-image toolchain's own test program (native-toolchain/test/run.sh builds it with the
 * assembled home): each check exercises code that crosses from Java into the toolchain's C
 * libraries (the JDK's static libjava/libnio/libnet/libzip, SubstrateVM's libchelper, libjvm and
 * svm_container). Prints "OK <check> ..." or "FAIL <check>: <error>" per check and exits 1 on
 * any failure. With --limits it only prints "cpus=<n> maxMemory=<bytes>".
 */
public final class NativeCheck {
    private static int failures;

    interface Check { String run() throws Exception; }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--limits")) {
            Runtime rt = Runtime.getRuntime();
            System.out.println("cpus=" + rt.availableProcessors() + " maxMemory=" + rt.maxMemory());
            return;
        }
        Thread watchdog = new Thread(() -> {
            try { Thread.sleep(60_000); } catch (InterruptedException e) { return; }
            System.out.println("FAIL watchdog: checks still running after 60 s");
            System.exit(2);
        });
        watchdog.setDaemon(true);
        watchdog.start();

        check("files", NativeCheck::files);
        check("gzip", NativeCheck::gzip);
        check("zip", NativeCheck::zip);
        check("socket", NativeCheck::socket);
        check("channel", NativeCheck::channel);
        check("localhost", NativeCheck::localhost);
        check("timezone", NativeCheck::timezone);
        check("process", NativeCheck::process);
        check("charset", NativeCheck::charset);
        check("threads", NativeCheck::threads);
        check("runtime", NativeCheck::runtime);
        System.exit(failures == 0 ? 0 : 1);
    }

    private static void check(String name, Check c) {
        try {
            System.out.println("OK " + name + " " + c.run());
        } catch (Throwable t) {
            failures++;
            System.out.println("FAIL " + name + ": " + t);
            t.printStackTrace(System.out);
        }
    }

    private static void expect(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    private static String files() throws IOException {
        Path dir = Files.createTempDirectory("native-check");
        try {
            Path a = dir.resolve("a.txt");
            String text = "line one\nzwei – ünïcode\n";
            Files.writeString(a, text);
            Files.write(dir.resolve("b.bin"), new byte[4096]);
            expect(Files.readString(a).equals(text), "read back differs");
            List<String> names;
            try (Stream<Path> s = Files.list(dir)) { names = s.map(p -> p.getFileName().toString()).sorted().toList(); }
            expect(names.equals(List.of("a.txt", "b.bin")), "list: " + names);
            PosixFileAttributes attrs = Files.readAttributes(a, PosixFileAttributes.class);
            expect(attrs.isRegularFile() && attrs.size() == text.getBytes(StandardCharsets.UTF_8).length, "size " + attrs.size());
            expect(attrs.permissions().contains(PosixFilePermission.OWNER_READ), "permissions " + attrs.permissions());
            expect(Math.abs(attrs.lastModifiedTime().toMillis() - System.currentTimeMillis()) < 600_000, "mtime " + attrs.lastModifiedTime());
            expect(Files.isDirectory(dir) && Files.size(dir.resolve("b.bin")) == 4096, "directory or size");
            return "tmp=" + dir.getParent() + " entries=" + names.size() + " owner=" + attrs.owner().getName();
        } finally {
            try (Stream<Path> s = Files.list(dir)) { for (Path p : s.toList()) Files.delete(p); }
            Files.delete(dir);
            expect(!Files.exists(dir), "temp dir not deleted");
        }
    }

    private static byte[] sample() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) sb.append("sample line ").append(i).append('\n');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String gzip() throws IOException {
        byte[] data = sample();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) { gz.write(data); }
        byte[] packed = bytes.toByteArray();
        byte[] back;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(packed))) { back = in.readAllBytes(); }
        expect(Arrays.equals(data, back), "round trip differs");
        expect(packed.length < data.length / 3, "not compressed: " + packed.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        return data.length + " -> " + packed.length + " bytes crc32=" + Long.toHexString(crc.getValue());
    }

    private static String zip() throws IOException {
        Path file = Files.createTempFile("native-check", ".zip");
        try {
            byte[] data = sample();
            try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(file))) {
                out.putNextEntry(new ZipEntry("dir/data.txt"));
                out.write(data);
                out.closeEntry();
                out.putNextEntry(new ZipEntry("empty"));
                out.closeEntry();
            }
            try (ZipFile zf = new ZipFile(file.toFile())) {
                ZipEntry e = zf.getEntry("dir/data.txt");
                expect(e != null && zf.size() == 2, "entries");
                try (InputStream in = zf.getInputStream(e)) { expect(Arrays.equals(in.readAllBytes(), data), "entry differs"); }
                return zf.size() + " entries, " + e.getSize() + " -> " + e.getCompressedSize() + " bytes";
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String socket() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(10_000);
            Thread echo = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.getInputStream().transferTo(s.getOutputStream());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            echo.start();
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                client.setSoTimeout(10_000);
                byte[] msg = "ping over loopback".getBytes(StandardCharsets.UTF_8);
                client.getOutputStream().write(msg);
                client.shutdownOutput();
                byte[] back = client.getInputStream().readAllBytes();
                expect(Arrays.equals(msg, back), "echo: " + new String(back, StandardCharsets.UTF_8));
            }
            echo.join(10_000);
            return "echo on port " + server.getLocalPort();
        }
    }

    private static String channel() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            try (SocketChannel client = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                 SocketChannel peer = server.accept()) {
                client.write(ByteBuffer.wrap("hello channel".getBytes(StandardCharsets.UTF_8)));
                ByteBuffer in = ByteBuffer.allocateDirect(64);
                while (in.position() < 13) expect(peer.read(in) >= 0, "early end of stream");
                in.flip();
                peer.write(in);
                ByteBuffer back = ByteBuffer.allocate(64);
                while (back.position() < 13) expect(client.read(back) >= 0, "early end of stream");
                String s = new String(back.array(), 0, back.position(), StandardCharsets.UTF_8);
                expect(s.equals("hello channel"), "got " + s);
                // A non-blocking selector round as well (epoll).
                peer.configureBlocking(false);
                try (Selector sel = Selector.open()) {
                    peer.register(sel, SelectionKey.OP_READ);
                    client.write(ByteBuffer.wrap(new byte[] {42}));
                    expect(sel.select(10_000) == 1, "selector saw nothing");
                }
                return "port " + port + " " + client.getLocalAddress() + " -> " + client.getRemoteAddress();
            }
        }
    }

    private static String localhost() throws Exception {
        InetAddress a = InetAddress.getByName("localhost");
        expect(a.isLoopbackAddress(), "not loopback: " + a);
        return a.toString();
    }

    private static String timezone() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        ZonedDateTime summer = Instant.parse("2024-07-01T12:00:00Z").atZone(paris);
        ZonedDateTime winter = Instant.parse("2024-01-15T12:00:00Z").atZone(paris);
        expect(summer.getHour() == 14 && summer.getOffset().equals(ZoneOffset.ofHours(2)), "summer " + summer);
        expect(winter.getHour() == 13 && winter.getOffset().equals(ZoneOffset.ofHours(1)), "winter " + winter);
        // The 2024 spring-forward gap: 02:30 local does not exist and moves to 03:30 +02:00.
        ZonedDateTime gap = LocalDateTime.of(2024, 3, 31, 2, 30).atZone(paris);
        expect(gap.getHour() == 3 && gap.getOffset().equals(ZoneOffset.ofHours(2)), "gap " + gap);
        TimeZone def = TimeZone.getDefault();
        expect(def != null && def.getID() != null && !def.getID().isEmpty(), "no default time zone");
        expect(ZoneId.systemDefault().getId().equals(def.getID()), "systemDefault " + ZoneId.systemDefault() + " vs " + def.getID());
        return "Paris " + summer.toLocalTime() + "/" + winter.toLocalTime() + ", default " + def.getID();
    }

    private static String process() throws Exception {
        Process p = new ProcessBuilder("/bin/echo", "hello", "from echo").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        expect(p.waitFor(10, TimeUnit.SECONDS), "echo did not end");
        expect(p.exitValue() == 0 && out.equals("hello from echo\n"), "exit " + p.exitValue() + " output '" + out + "'");
        Process f = new ProcessBuilder("/bin/sh", "-c", "exit 3").start();
        expect(f.waitFor(10, TimeUnit.SECONDS) && f.exitValue() == 3, "exit code of sh -c 'exit 3'");
        return "pid " + p.pid() + " said '" + out.strip() + "'";
    }

    private static String charset() {
        Charset cs = Charset.defaultCharset();
        expect(cs.equals(StandardCharsets.UTF_8), "default charset " + cs);
        String s = "Grüße, Ελλάδα, 日本";
        expect(new String(s.getBytes(cs), cs).equals(s), "round trip");
        Locale l = Locale.getDefault();
        expect(l != null, "no default locale");
        String fmt = String.format(Locale.ROOT, "%.2f", 1234.5);
        expect(fmt.equals("1234.50"), "format " + fmt);
        return "default=" + cs + " native.encoding=" + System.getProperty("native.encoding")
                + " sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding") + " locale=" + l.toLanguageTag();
    }

    private static String threads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> parts = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                final long from = i * 10_000L;
                parts.add(pool.submit(() -> { long s = 0; for (long k = from; k < from + 10_000; k++) s += k; return s; }));
            }
            long sum = 0;
            for (Future<Long> f : parts) sum += f.get(30, TimeUnit.SECONDS);
            expect(sum == 159_999L * 160_000L / 2, "sum " + sum);
            return "16 tasks on 4 threads, sum " + sum;
        } finally {
            pool.shutdown();
            expect(pool.awaitTermination(10, TimeUnit.SECONDS), "pool did not terminate");
        }
    }

    private static String runtime() {
        Runtime rt = Runtime.getRuntime();
        expect(rt.availableProcessors() >= 1, "availableProcessors " + rt.availableProcessors());
        expect(rt.maxMemory() > 0 && rt.maxMemory() != Long.MAX_VALUE, "maxMemory " + rt.maxMemory());
        return "cpus=" + rt.availableProcessors() + " maxMemory=" + rt.maxMemory();
    }
}
