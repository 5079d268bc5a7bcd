package org.examsuite.grading.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.examsuite.common.auth.Pem;
import org.junit.jupiter.api.Test;

/**
 * The head signer's cache must give each head its own signature. It once kept the head and the
 * signature in two volatiles: a call for the cached head could read the head, then the signature
 * another thread had just written for the next head (or two signing threads could leave one's
 * head beside the other's signature), and hand out a signature that does not verify.
 */
class HeadSignerTest {
    private static final KeyPair KEYS = Pem.generateRsa();

    private static HeadSigner signer() {
        String pem = Pem.encodePrivate(KEYS.getPrivate());
        return new HeadSigner(new ArchiveConfig() {
            @Override
            public Signing signing() {
                return new Signing() {
                    @Override
                    public String privateKey() {
                        return pem;
                    }

                    @Override
                    public String publicKey() {
                        return Pem.encodePublic(KEYS.getPublic());
                    }
                };
            }

            @Override
            public int appendBatch() {
                return 100;
            }

            @Override
            public Duration appendTimeout() {
                return Duration.ofSeconds(30);
            }
        });
    }

    private static String hash(long seq) {
        return String.format("%064x", seq * 0x9E3779B97F4A7C15L);
    }

    private static boolean verifies(PublicKey key, String text, String signature) throws Exception {
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(key);
        rsa.update(text.getBytes(StandardCharsets.UTF_8));
        return rsa.verify(Base64.getDecoder().decode(signature));
    }

    @Test
    void aSignatureVerifiesAndIsCachedForItsHead() throws Exception {
        HeadSigner signer = signer();
        String first = signer.sign(7, hash(7));
        assertTrue(verifies(KEYS.getPublic(), HeadSigner.signedText(7, hash(7)), first));
        assertEquals(first, signer.sign(7, hash(7)));
        String next = signer.sign(8, hash(8));
        assertTrue(verifies(KEYS.getPublic(), HeadSigner.signedText(8, hash(8)), next));
        assertEquals(first, signer.sign(7, hash(7)));
    }

    /**
     * Many threads ask for the current head's signature (mostly served from the cache) while
     * another signs each next head as it is appended, and only then makes it the current one, so
     * the cache changes under calls for the head before it. Every (head, signature) pair any call
     * returned must verify against that head. Counts of work, no timing: the head advances a fixed
     * number of times, each time after the readers made a fixed number of calls on the head before.
     */
    @Test
    void concurrentCallsWhileTheHeadAdvancesNeverPairAHeadWithAnotherHeadsSignature() throws Exception {
        HeadSigner signer = signer();
        int readers = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        long heads = 300;
        AtomicLong head = new AtomicLong(1);
        AtomicLong calls = new AtomicLong();
        Map<String, Set<String>> returned = new ConcurrentHashMap<>();
        CyclicBarrier start = new CyclicBarrier(readers + 1);
        ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                work.add(pool.submit(() -> {
                    Map<String, Set<String>> mine = new java.util.HashMap<>();
                    start.await();
                    for (long seq = head.get(); seq <= heads; seq = head.get()) {
                        String text = HeadSigner.signedText(seq, hash(seq));
                        String signature = signer.sign(seq, hash(seq));
                        mine.computeIfAbsent(text, k -> new HashSet<>()).add(signature);
                        calls.incrementAndGet();
                    }
                    mine.forEach((text, signatures) ->
                            returned.computeIfAbsent(text, k -> ConcurrentHashMap.newKeySet()).addAll(signatures));
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                start.await();
                for (long next = 2; next <= heads + 1; next++) {
                    long before = calls.get();
                    while (calls.get() < before + 1_000) { // the readers are on the current head
                        Thread.onSpinWait();
                    }
                    if (next <= heads) {
                        String signature = signer.sign(next, hash(next));
                        returned.computeIfAbsent(HeadSigner.signedText(next, hash(next)), k -> ConcurrentHashMap.newKeySet())
                                .add(signature);
                    }
                    head.set(next);
                }
                return null;
            }));
            for (Future<?> done : work) {
                done.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(heads, returned.size(), "every head was asked for");
        List<String> mismatched = new ArrayList<>();
        for (Map.Entry<String, Set<String>> entry : returned.entrySet()) {
            for (String signature : entry.getValue()) {
                if (!verifies(KEYS.getPublic(), entry.getKey(), signature)) {
                    mismatched.add(entry.getKey());
                }
            }
        }
        assertEquals(List.of(), mismatched, "heads handed a signature that is not theirs");
        // PKCS#1 v1.5 is deterministic: one head, one signature.
        returned.forEach((text, signatures) -> assertEquals(1, signatures.size(), text + ": " + signatures.size() + " signatures"));
    }
}
