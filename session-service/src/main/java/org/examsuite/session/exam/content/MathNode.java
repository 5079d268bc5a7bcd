package org.examsuite.session.exam.content;

import org.commonmark.node.CustomNode;

/** A LaTeX formula in Markdown: {@code $…$} inline, {@code $$…$$} display (docs/api.md §4.5). */
final class MathNode extends CustomNode {
    private final String tex;
    private final boolean display;

    MathNode(String tex, boolean display) {
        this.tex = tex;
        this.display = display;
    }

    String tex() {
        return tex;
    }

    boolean display() {
        return display;
    }
}
