package io.flinkinsight.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A statement's SQL text as Flink Insight keeps and shows it: comments dropped, white space
 * collapsed, and by default every literal replaced by {@code ?}, so that statements that differ
 * only in their literals (which can carry personal data) are one statement, as {@code
 * pg_stat_statements} groups them. A run of two or more literals separated by commas ({@code IN (1,
 * 2, 3)}, a row of {@code VALUES}) becomes {@code ?, ...}, whatever its length.
 *
 * <p>What is a literal, in Flink SQL's lexical terms: a string in single quotes (with {@code ''}
 * inside), also after the prefixes {@code X}, {@code N}, {@code E}, {@code B} or {@code U&}; a text
 * in double quotes (kept private too, though some dialects read it as a name); a number ({@code
 * 42}, {@code 4.2}, {@code .5}, {@code 1e-3}). Names in back quotes, keywords and operators are
 * kept as written. Hints ({@code /*+ ... *}{@code /}) are kept, with their literals replaced; other
 * comments are dropped.
 *
 * <p>Bounded whatever the input: at most {@value #MAX_SCANNED_CHARS} characters are read, the
 * result has at most {@value #MAX_CHARS} characters (a longer one ends in {@code …}), control
 * characters become spaces and a lone surrogate becomes U+FFFD, so the text is safe to store, log
 * and encode.
 */
public final class StatementText {

    /** The longest text kept of a statement, in characters. */
    public static final int MAX_CHARS = 2048;

    /** How much of a statement is read at the most, in characters. */
    public static final int MAX_SCANNED_CHARS = 1 << 20;

    // possessive: a run of thousands of literals must not take a stack frame each
    private static final Pattern LITERAL_RUN = Pattern.compile("\\?(?: ?, ?\\?)++");
    // a minus that can only be a sign: at the start, after an operator, a comma, a parenthesis
    // or a keyword after which a value comes
    private static final Pattern SIGNED_LITERAL =
            Pattern.compile(
                    "(^|[(,=<>+*/%-] ?|\\b(?i:select|where|and|or|not|when|then|else|between"
                            + "|like|is|in|limit|offset|having|by|return) )(?:- ?)++\\?(?![\\w.])");
    private static final char LONE_SURROGATE = '\uFFFD';

    private final String text;
    private final boolean truncated;
    private final boolean literalsKept;
    private final StringBuilder out = new StringBuilder();
    private int at;
    private boolean space;
    private boolean closed;

    private StatementText(String text, boolean literalsKept) {
        this.truncated = text.length() > MAX_SCANNED_CHARS;
        this.text = truncated ? text.substring(0, MAX_SCANNED_CHARS) : text;
        this.literalsKept = literalsKept;
    }

    /**
     * The statement with its literals replaced, its comments dropped, its white space collapsed.
     */
    public static String normalize(String sql) {
        return sql == null ? "" : new StatementText(sql, false).scan();
    }

    /**
     * The statement with its literals as written, its comments dropped, its white space collapsed.
     */
    public static String collapse(String sql) {
        return sql == null ? "" : new StatementText(sql, true).scan();
    }

    /** A short, stable id of a kept text: 16 hex digits of its SHA-256. */
    public static String fingerprint(String keptText) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(keptText.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private String scan() {
        // a little more than kept, so a literal run cut by the bound still collapses
        int bound = 2 * MAX_CHARS;
        while (at < text.length() && out.length() < bound) {
            char c = text.charAt(at);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                space = true;
                at++;
            } else if (startsWith("--") || startsWith("//")) {
                skipLine();
            } else if (startsWith("/*+")) {
                emit("/*+");
                at += 3;
            } else if (startsWith("/*")) {
                skipBlockComment();
            } else if (c == '\'' || c == '"') {
                literal(at, quoted(c, false));
            } else if (c == '`') {
                quotedName(at, quoted('`', false));
            } else if (isDigit(c) || (c == '.' && isDigit(charAt(at + 1)))) {
                literal(at, number());
            } else if (isNameStart(text.codePointAt(at))) {
                name();
            } else {
                emit(symbol());
            }
        }
        String kept = literalsKept ? out.toString() : collapseRuns(out);
        return bounded(kept, truncated || at < text.length());
    }

    private void name() {
        int start = at;
        while (at < text.length() && isNamePart(text.codePointAt(at))) {
            at += Character.charCount(text.codePointAt(at));
        }
        String name = text.substring(start, at);
        if (charAt(at) == '\'' && isLiteralPrefix(name)) {
            // Flink 2's E'..' takes backslash escapes (E'O\'Brien'); the others only ''
            literal(start, quoted('\'', name.equalsIgnoreCase("E")));
        } else if (charAt(at) == '&' && charAt(at + 1) == '\'' && name.equalsIgnoreCase("U")) {
            at++;
            literal(start, quoted('\'', false));
        } else {
            emit(name);
        }
    }

    /** Emits the literal from {@code start} to {@code end} (where the scan now is) or its mark. */
    private void literal(int start, int end) {
        emit(literalsKept ? clean(text.substring(start, end)) : "?");
    }

    /** A quoted name from {@code start} to {@code end}; unterminated, it hides the rest. */
    private void quotedName(int start, int end) {
        emit(closed ? clean(text.substring(start, end)) : "?");
    }

    /**
     * Moves past the quoted text at the scan's place; returns where it ends ({@link #closed} says
     * whether its closing quote was found).
     */
    private int quoted(char quote, boolean backslashEscapes) {
        at++;
        closed = false;
        while (at < text.length()) {
            if (backslashEscapes && text.charAt(at) == '\\') {
                at += 2;
                continue;
            }
            if (text.charAt(at) == quote) {
                if (charAt(at + 1) == quote) {
                    at += 2;
                    continue;
                }
                at++;
                closed = true;
                return at;
            }
            at++;
        }
        at = Math.min(at, text.length());
        return at; // unterminated: the rest of the text is the literal
    }

    private int number() {
        while (isDigit(charAt(at)) || charAt(at) == '.') {
            at++;
        }
        char e = charAt(at);
        if ((e == 'e' || e == 'E')
                && (isDigit(charAt(at + 1))
                        || ((charAt(at + 1) == '+' || charAt(at + 1) == '-')
                                && isDigit(charAt(at + 2))))) {
            at += 2;
            while (isDigit(charAt(at))) {
                at++;
            }
        }
        // a number glued to letters (1d, 0x1F) is one literal, not a literal and a name
        while (at < text.length() && isNamePart(text.codePointAt(at))) {
            at += Character.charCount(text.codePointAt(at));
        }
        return at;
    }

    private String symbol() {
        int cp = text.codePointAt(at);
        at += Character.charCount(cp);
        if (isHidden(cp)) {
            return String.valueOf(LONE_SURROGATE);
        }
        return new String(Character.toChars(cp));
    }

    private void skipLine() {
        while (at < text.length() && text.charAt(at) != '\n' && text.charAt(at) != '\r') {
            at++;
        }
        space = true;
    }

    private void skipBlockComment() {
        int end = text.indexOf("*/", at + 2);
        at = end < 0 ? text.length() : end + 2;
        space = true;
    }

    private void emit(String token) {
        if (space && out.length() > 0) {
            out.append(' ');
        }
        space = false;
        out.append(token);
    }

    private boolean startsWith(String prefix) {
        return text.startsWith(prefix, at);
    }

    private char charAt(int index) {
        return index < text.length() ? text.charAt(index) : '\0';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isNameStart(int cp) {
        return Character.isLetter(cp) || cp == '_' || cp == '$';
    }

    private static boolean isNamePart(int cp) {
        return Character.isLetterOrDigit(cp) || cp == '_' || cp == '$';
    }

    private static boolean isLiteralPrefix(String name) {
        return name.length() == 1 && "XxNnEeBb".indexOf(name.charAt(0)) >= 0;
    }

    /**
     * A lone surrogate (no character), or a format character such as U+202E (it would reorder what
     * a reader sees).
     */
    private static boolean isHidden(int cp) {
        return (cp <= Character.MAX_VALUE && Character.isSurrogate((char) cp))
                || Character.getType(cp) == Character.FORMAT;
    }

    /**
     * A quoted text kept as written, with control characters as spaces and lone surrogates and
     * format characters as U+FFFD.
     */
    private static String clean(String quoted) {
        StringBuilder b = new StringBuilder(quoted.length());
        for (int i = 0; i < quoted.length(); ) {
            int cp = quoted.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isISOControl(cp)) {
                b.append(' ');
            } else if (isHidden(cp)) {
                b.append(LONE_SURROGATE);
            } else {
                b.appendCodePoint(cp);
            }
        }
        return b.toString();
    }

    private static String collapseRuns(CharSequence normalized) {
        String unsigned = SIGNED_LITERAL.matcher(normalized).replaceAll("$1?");
        return LITERAL_RUN.matcher(unsigned).replaceAll("?, ...");
    }

    private static String bounded(String kept, boolean cut) {
        if (kept.length() <= MAX_CHARS && !cut) {
            return kept;
        }
        int end = Math.min(kept.length(), MAX_CHARS - 1);
        if (end > 0 && Character.isHighSurrogate(kept.charAt(end - 1))) {
            end--;
        }
        return kept.substring(0, end) + '…';
    }
}
