package org.examsuite.answer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.common.redis.LuaScript;

/**
 * The benchmark's ceiling (bench/autosave): parse a JSON delta, one Redis Lua round trip,
 * answer — what an autosave cannot beat on the same machine. Compiled only into a bench build
 * ({@code -Dexam.bench.ceiling=true}, the pom's bench-ceiling profile, which the autosave bench
 * makes for itself): the production artifact has no such endpoint to switch on.
 */
@Path("/api/v1/bench/ceiling/{n}")
@Tag(name = "bench", description = "Benchmark probes, in bench builds only (docs/benchmarks.md)")
public class CeilingResource {
    private final LuaScript ceiling = LuaScript.of(CeilingResource.class, "ceiling.lua");

    private final RedisScripts scripts;

    @Inject
    CeilingResource(RedisScripts scripts) {
        this.scripts = scripts;
    }

    @POST
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Benchmark probe: the autosave ceiling (bench builds only)")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The probe's reply")
    public Uni<Map<String, Object>> ceiling(@PathParam("n") int n, JsonNode body) {
        List<String> fields = new ArrayList<>();
        if (body != null) {
            for (JsonNode change : body.path("changes")) {
                fields.add(change.path("questionId").asText("q"));
                fields.add(change.path("value").toString());
            }
        }
        return scripts.run(ceiling, List.of("ans:{bench:" + (n & 0xffff) + "}:ceiling"), fields)
                .map(reply -> Map.of("fields", reply.toLong()));
    }
}
