package org.examsuite.grading.saga;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** This process's name in leases and as a stream consumer: the pod's host name plus a random suffix per start. */
@ApplicationScoped
public class ReplicaId {
    private final String value;

    public ReplicaId() {
        String host = System.getenv("HOSTNAME");
        value = (host == null || host.isBlank() ? "grading" : host) + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public String get() {
        return value;
    }
}
