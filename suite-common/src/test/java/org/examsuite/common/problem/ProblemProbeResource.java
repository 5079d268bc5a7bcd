package org.examsuite.common.problem;

import jakarta.annotation.security.PermitAll;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.List;
import org.examsuite.contracts.problem.ProblemCode;

/** Test-only endpoints that fail in each way a real one can. */
@Path("/api/v1/probe")
public class ProblemProbeResource {
    public record Item(@NotBlank String id) {
    }

    public record Body(@NotNull @Min(1) Long version, @NotNull List<@Valid Item> items) {
    }

    @POST
    @PermitAll
    public Body echo(@Valid @NotNull Body body) {
        return body;
    }

    @GET
    @Path("/conflict")
    @PermitAll
    public String conflict() {
        throw ApiException.retryLater(409, ProblemCode.REQUEST_IN_PROGRESS, "Still working on it.", 2).with("sessionId", "s-1");
    }

    @GET
    @Path("/echo/{id}")
    @PermitAll
    public String echo(@jakarta.ws.rs.PathParam("id") String id) {
        return id;
    }

    @GET
    @Path("/boom")
    @PermitAll
    public String boom() {
        throw new IllegalStateException("secret internals");
    }

    @GET
    @Path("/slow")
    @PermitAll
    public String slow() {
        // What a blocking Redis call does when its wait runs out (quarkus.redis.timeout).
        return io.smallrye.mutiny.Uni.createFrom().<String>nothing().await().atMost(java.time.Duration.ofMillis(10));
    }

    /** A store that does not answer for 2 s (a partition): past the test's deadlines (0.5 s reads, 1 s writes). */
    @GET
    @Path("/stuck")
    @PermitAll
    public io.smallrye.mutiny.Uni<String> stuck() {
        return late();
    }

    @POST
    @Path("/stuck")
    @PermitAll
    public io.smallrye.mutiny.Uni<String> stuckWrite(String body) {
        return late();
    }

    @GET
    @Path("/unhurried/stuck")
    @PermitAll
    public io.smallrye.mutiny.Uni<String> exempt() {
        return late();
    }

    private static io.smallrye.mutiny.Uni<String> late() {
        return io.smallrye.mutiny.Uni.createFrom().item("late").onItem().delayIt().by(java.time.Duration.ofSeconds(2));
    }
}
