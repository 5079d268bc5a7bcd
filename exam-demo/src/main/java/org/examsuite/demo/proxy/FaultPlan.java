package org.examsuite.demo.proxy;

/** Chooses the fault (or {@link Fault#NONE}) for each request the proxy receives. */
@FunctionalInterface
public interface FaultPlan {
    Fault decide(String route, String method, String path);
}
