/**
 * ESLint's view of a Python file: the synclint syntax tree (plain objects `{type, start, end, field, parent,
 * children, tokens}`, offsets in UTF-16 code units), its comments, and the `eslint-disable` directives found in
 * `#` comments.
 */
import { ConfigCommentParser, Directive, TextSourceCodeBase, VisitNodeStep } from "@eslint/plugin-kit";
import { SourceText } from "./engine.js";

const commentParser = new ConfigCommentParser();
const DISABLE_TYPES = new Set(["eslint-disable", "eslint-enable", "eslint-disable-line", "eslint-disable-next-line"]);

export class PythonSourceCode extends TextSourceCodeBase {
  /** @type {import("synclint-rules").SyntaxTree} */
  syntax;
  /** @type {object[]} */
  comments;
  /** The language options this file was parsed with. */
  languageOptions;
  #source;
  #parents = new WeakMap();

  constructor({ text, syntax, languageOptions }) {
    super({ text, ast: syntax.root, lineEndingPattern: /\r\n|[\r\n]/u });
    this.syntax = syntax;
    this.comments = syntax.comments;
    this.languageOptions = languageOptions ?? {};
    this.#source = new SourceText(text);
  }

  /** The root spans the whole file (tree-sitter's `module` starts at the first statement). */
  getRange(node) {
    if (node === this.ast) return [0, this.text.length];
    return [node.start, node.end];
  }

  getLoc(node) {
    const [start, end] = this.getRange(node);
    return { start: this.#position(start), end: this.#position(end) };
  }

  #position(offset) {
    const { line, character } = this.#source.position(offset);
    return { line: line + 1, column: character + 1 };
  }

  getParent(node) {
    return node.parent ?? undefined;
  }

  *traverse() {
    // Iterative, so that deeply nested code cannot overflow the stack.
    const stack = [{ node: this.ast, exit: false }];
    while (stack.length > 0) {
      const { node, exit } = stack.pop();
      yield new VisitNodeStep({ target: node, phase: exit ? 2 : 1, args: [node, node.parent ?? undefined] });
      if (exit) continue;
      stack.push({ node, exit: true });
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i], exit: false });
    }
  }

  /** `# eslint-disable`, `# eslint-enable`, `# eslint-disable-line` and `# eslint-disable-next-line` comments. */
  getDisableDirectives() {
    const problems = [];
    const directives = [];
    for (const comment of this.comments) {
      const body = this.text.slice(comment.start, comment.end).replace(/^#/u, "");
      const directive = commentParser.parseDirective(body);
      if (!directive || !DISABLE_TYPES.has(directive.label)) continue;
      const type = directive.label.slice("eslint-".length);
      if (type === "disable-line" && this.getLoc(comment).start.line !== this.getLoc(comment).end.line) {
        problems.push({ ruleId: null, message: `${directive.label} comment should not span multiple lines.`, loc: this.getLoc(comment) });
        continue;
      }
      directives.push(new Directive({ type, node: comment, value: directive.value, justification: directive.justification }));
    }
    return { problems, directives };
  }
}
