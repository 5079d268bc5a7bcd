package org.examsuite.session.exam.content;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * An SVG figure reduced to drawing: the elements and attributes of shapes, text, gradients, clips, masks, markers and
 * simple filters in the SVG namespace, written out anew. Gone: scripts, event handlers, {@code <style>}, links,
 * {@code <foreignObject>}, {@code <image>}, animation, every reference that is not to an id of the same document
 * ({@code href="#…"}, {@code url(#…)}), other namespaces (an editor's metadata), comments, processing instructions and
 * DTDs (refused: no entities). The page shows figures as {@code <img>}, where an SVG runs nothing; this is the second
 * line, and what a figure opened on its own (its URL) relies on.
 */
public final class SvgSanitizer {
    public static final String SVG_NS = "http://www.w3.org/2000/svg";
    private static final String XLINK_NS = "http://www.w3.org/1999/xlink";
    private static final int MAX_DEPTH = 64;

    private static final Set<String> ELEMENTS = Set.of("svg", "g", "defs", "title", "desc", "symbol", "use", "path", "rect",
            "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "linearGradient", "radialGradient",
            "stop", "clipPath", "mask", "pattern", "marker", "filter", "feGaussianBlur", "feOffset", "feBlend", "feFlood",
            "feComposite", "feMerge", "feMergeNode", "feColorMatrix", "feDropShadow");
    /** Elements whose text is content; elsewhere text is layout whitespace and dropped. */
    private static final Set<String> TEXT_ELEMENTS = Set.of("title", "desc", "text", "tspan", "textPath");
    /** Silently dropped with what they hold: what editors add that draws nothing. */
    private static final Set<String> QUIET = Set.of("metadata");
    private static final Set<String> ATTRIBUTES = Set.of("id", "class", "transform", "d", "x", "y", "x1", "y1", "x2", "y2",
            "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "width", "height", "points", "viewBox", "preserveAspectRatio",
            "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap", "stroke-linejoin",
            "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "opacity", "font-family", "font-size", "font-weight",
            "font-style", "font-variant", "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift", "dx", "dy",
            "rotate", "textLength", "lengthAdjust", "letter-spacing", "word-spacing", "text-decoration", "writing-mode",
            "startOffset", "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
            "clip-path", "clip-rule", "clipPathUnits", "mask", "maskUnits", "maskContentUnits", "patternUnits",
            "patternContentUnits", "patternTransform", "marker-start", "marker-mid", "marker-end", "markerWidth", "markerHeight",
            "markerUnits", "refX", "refY", "orient", "visibility", "display", "color", "vector-effect", "shape-rendering",
            "text-rendering", "paint-order", "filter", "filterUnits", "primitiveUnits", "stdDeviation", "in", "in2", "result",
            "mode", "operator", "k1", "k2", "k3", "k4", "values", "type", "flood-color", "flood-opacity", "overflow", "version",
            "style", "href");
    private static final Pattern URL = Pattern.compile("(?i)url\\s*\\(");
    private static final Pattern LOCAL_URL = Pattern.compile("(?i)url\\(\\s*['\"]?#[A-Za-z0-9_.:-]+['\"]?\\s*\\)");
    private static final Pattern STYLE_UNSAFE = Pattern.compile("(?i)@import|expression\\s*\\(|\\\\|javascript:|behavior|-moz-binding");

    /** The drawing of an SVG document and what was taken out of it (sorted, each named once). */
    public record Sanitized(byte[] svg, Set<String> removed, String width, String height) {
    }

    /** Thrown when the bytes are not an SVG document this can read. */
    public static final class NotSvg extends Exception {
        NotSvg(String message) {
            super(message, null, false, false);
        }
    }

    private SvgSanitizer() {
    }

    public static Sanitized sanitize(byte[] bytes) throws NotSvg {
        Element root = parse(bytes).getDocumentElement();
        if (!SVG_NS.equals(root.getNamespaceURI()) || !"svg".equals(root.getLocalName())) {
            throw new NotSvg("the document's root is not an <svg> element in the SVG namespace");
        }
        Set<String> removed = new TreeSet<>();
        StringBuilder out = new StringBuilder(bytes.length);
        write(root, out, removed, 0, true);
        String width = root.getAttribute("width");
        String height = root.getAttribute("height");
        return new Sanitized(out.toString().getBytes(StandardCharsets.UTF_8), removed, width, height);
    }

    private static org.w3c.dom.Document parse(byte[] bytes) throws NotSvg {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new ErrorHandler() { // the default one prints to stderr
                @Override
                public void warning(SAXParseException e) {
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder.parse(new ByteArrayInputStream(bytes));
        } catch (SAXException e) {
            String reason = e.getMessage() == null ? "" : e.getMessage();
            throw new NotSvg(reason.contains("DOCTYPE") ? "an SVG with a DOCTYPE (entities) is not accepted"
                    : "not well-formed XML" + (e instanceof SAXParseException p ? " (line " + p.getLineNumber() + ")" : ""));
        } catch (IOException | ParserConfigurationException e) {
            throw new NotSvg("not readable as XML");
        }
    }

    private static void write(Element element, StringBuilder out, Set<String> removed, int depth, boolean root) throws NotSvg {
        if (depth > MAX_DEPTH) {
            throw new NotSvg("nested more than " + MAX_DEPTH + " elements deep");
        }
        String name = element.getLocalName();
        out.append('<').append(name);
        if (root) {
            out.append(" xmlns=\"").append(SVG_NS).append('"');
        }
        NamedNodeMap attributes = element.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++) {
            Attr attribute = (Attr) attributes.item(i);
            String ns = attribute.getNamespaceURI();
            String local = attribute.getLocalName() == null ? attribute.getName() : attribute.getLocalName();
            if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(ns)) {
                continue; // namespace declarations: the output declares its one namespace
            }
            boolean xlinkHref = XLINK_NS.equals(ns) && "href".equals(local);
            if ((ns != null && !xlinkHref) || !ATTRIBUTES.contains(local)) {
                removed.add("attribute " + (attribute.getPrefix() == null ? "" : attribute.getPrefix() + ":") + local);
                continue;
            }
            String value = attribute.getValue();
            if (!allowed(local, value)) {
                removed.add("attribute " + local + " (a reference outside the figure, or unsafe style)");
                continue;
            }
            out.append(' ').append(local).append("=\"").append(escape(value)).append('"');
        }
        out.append('>');
        boolean text = TEXT_ELEMENTS.contains(name);
        for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
            switch (child.getNodeType()) {
                case Node.ELEMENT_NODE -> {
                    Element inner = (Element) child;
                    String innerName = inner.getLocalName();
                    boolean svg = SVG_NS.equals(inner.getNamespaceURI());
                    if (svg && ELEMENTS.contains(innerName)) {
                        write(inner, out, removed, depth + 1, false);
                    } else if (!svg) {
                        removed.add("element <" + (inner.getPrefix() == null ? "" : inner.getPrefix() + ":") + innerName + "> (not SVG)");
                    } else if (!QUIET.contains(innerName)) {
                        removed.add("element <" + innerName + ">");
                    }
                }
                case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> {
                    if (text) {
                        out.append(escape(child.getNodeValue()));
                    }
                }
                default -> {
                    // comments and processing instructions draw nothing
                }
            }
        }
        out.append("</").append(name).append('>');
    }

    private static boolean allowed(String attribute, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if ("href".equals(attribute)) {
            return value.startsWith("#");
        }
        if ("style".equals(attribute) && STYLE_UNSAFE.matcher(v).find()) {
            return false;
        }
        // every url(...) must name an element of this document
        return !URL.matcher(LOCAL_URL.matcher(value).replaceAll("")).find();
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
