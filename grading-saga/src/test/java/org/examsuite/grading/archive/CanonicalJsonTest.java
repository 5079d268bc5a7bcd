package org.examsuite.grading.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tree canonicaliser (ChainHash.canonical(JsonNode)) must give exactly the text of the
 * RFC 8785 library over the tree's JSON text — the digests of papers signed before and the
 * archive's hashes depend on it.
 */
class CanonicalJsonTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void knownTextsCanonicaliseAsTheLibraryDoes() throws Exception {
        String[] texts = {
            "{\"b\":1,\"a\":[true,false,null],\"c\":{\"z\":\"x\",\"y\":-0.0}}",
            "{\"numbers\":[3.140,1e21,1e-7,0.1,-0,12345678901234567890,9007199254740993,1E+2,4.5e300,5e-324,2.5]}",
            "{\"\\u20ac\":1,\"\\r\":2,\"\\ud83d\\ude00\":3,\"\\u0080\":4,\"\\ufb33\":5,\"1\":6,\"\":7}",
            "{\"s\":\"tab\\t nl\\n cr\\r ff\\f bs\\b q\\\" back\\\\ ctl\\u0001\\u001f del\\u007f ls\\u2028 e\\u00e9 \\ud83d\\ude00 /\"}",
            "[{\"answers\":{\"q1\":\"4\",\"q2\":[\"a\",\"c\"],\"q3\":12.50,\"q4\":true}},[],{}]",
        };
        for (String text : texts) {
            JsonNode tree = MAPPER.readTree(text);
            assertEquals(ChainHash.canonical(tree.toString()), ChainHash.canonical(tree), text);
        }
    }

    @Test
    void randomTreesCanonicaliseAsTheLibraryDoes() {
        Random random = new Random(20261130L);
        for (int i = 0; i < 2_000; i++) {
            JsonNode tree = NODES.arrayNode().add(randomNode(random, 0)); // the library wants an array or object outside
            assertEquals(ChainHash.canonical(tree.toString()), ChainHash.canonical(tree), tree.toString());
        }
    }

    @Test
    void topLevelMembersCanBeLeftOut() {
        ObjectNode paper = NODES.objectNode().put("paperId", "p-1").put("digest", "d").put("signature", "s");
        paper.putObject("answers").put("digest", "kept: not top-level");
        ObjectNode unsigned = paper.deepCopy();
        unsigned.remove(Set.of("digest", "signature"));
        assertEquals(ChainHash.canonical(unsigned.toString()), ChainHash.canonical(paper, Set.of("digest", "signature")));
    }

    private static JsonNode randomNode(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 7 : 9);
        switch (kind) {
            case 0:
                return NODES.textNode(randomString(random));
            case 1:
                return NODES.numberNode(random.nextInt());
            case 2:
                return NODES.numberNode(random.nextLong() >> random.nextInt(64));
            case 3: {
                double value = Double.longBitsToDouble(random.nextLong());
                return Double.isFinite(value) ? NODES.numberNode(value) : NODES.numberNode(random.nextGaussian() * 1e6);
            }
            case 4:
                return NODES.numberNode(new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(30) - 10));
            case 5:
                return NODES.numberNode(new BigInteger(90, random));
            case 6:
                return random.nextBoolean() ? NODES.booleanNode(random.nextBoolean()) : NODES.nullNode();
            case 7: {
                ArrayNode array = NODES.arrayNode();
                for (int n = random.nextInt(5); n > 0; n--) {
                    array.add(randomNode(random, depth + 1));
                }
                return array;
            }
            default: {
                ObjectNode object = NODES.objectNode();
                for (int n = random.nextInt(6); n > 0; n--) {
                    object.set(randomString(random), randomNode(random, depth + 1));
                }
                return object;
            }
        }
    }

    private static String randomString(Random random) {
        String alphabet = "aZ09 _\"\\/\t\n\r\b\f\u0000\u0001\u001f\u007f\u0080\u00e9\u20ac\u2028\ufb33\uffff";
        StringBuilder text = new StringBuilder();
        for (int n = random.nextInt(8); n > 0; n--) {
            if (random.nextInt(10) == 0) {
                text.appendCodePoint(0x1F600 + random.nextInt(50)); // a surrogate pair
            } else {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
        }
        return text.toString();
    }
}
