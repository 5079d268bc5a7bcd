package org.examsuite.demo.drill;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.examsuite.demo.drill.Topology.Service;

/**
 * Who is being disturbed: at most one replica of a service at a time (the chart's PodDisruptionBudget keeps one), so
 * that a fault tests failover, not a service without replicas; and one Redis fault at a time (a replica kill during a
 * failover would leave a slot range without a master). The bash drill kept these as lock directories under state/.
 */
public final class Disruptions {
    private final Set<Service> claimed = ConcurrentHashMap.newKeySet();
    private final Semaphore redis = new Semaphore(1);

    /** Claims S if nobody disturbs it; true when this caller now holds it. */
    public boolean claim(Service s) {
        return claimed.add(s);
    }

    public void release(Service s) {
        claimed.remove(s);
    }

    /** Claims S, waiting as long as it takes (the rolling restart's turn). */
    public void claimWait(Service s) throws InterruptedException {
        while (!claim(s)) {
            Thread.sleep(500);
        }
    }

    public boolean claimed(Service s) {
        return claimed.contains(s);
    }

    /** Runs a Redis fault when no other one runs. */
    public void redisExclusive(Injection fault) throws InterruptedException {
        redis.acquire();
        try {
            fault.run();
        } finally {
            redis.release();
        }
    }

    /** A fault's body; interrupted when the drill ends. */
    @FunctionalInterface
    public interface Injection {
        void run() throws InterruptedException;
    }
}
