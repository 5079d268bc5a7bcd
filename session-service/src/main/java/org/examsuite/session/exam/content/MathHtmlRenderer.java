package org.examsuite.session.exam.content;

import java.util.Map;
import java.util.Set;
import org.commonmark.node.Node;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlWriter;

/** A formula as the page's renderer marks it up before KaTeX draws it: a span holding the TeX as text. */
final class MathHtmlRenderer implements NodeRenderer {
    private final HtmlWriter html;

    MathHtmlRenderer(HtmlNodeRendererContext context) {
        this.html = context.getWriter();
    }

    @Override
    public Set<Class<? extends Node>> getNodeTypes() {
        return Set.of(MathNode.class);
    }

    @Override
    public void render(Node node) {
        MathNode math = (MathNode) node;
        html.tag("span", Map.of("class", math.display() ? "math-display" : "math-inline"));
        html.text(math.tex());
        html.tag("/span");
    }
}
