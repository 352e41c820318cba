package io.flinkinsight.plugin.http;

/**
 * The rules a request target must pass before anything routes it, each named in the 400 answer that
 * refuses it. The path is decoded exactly once; whatever would decode to a different shape (another
 * segment, another file, another route for a server that decodes again) is refused rather than
 * normalised.
 */
public enum TargetRefusal {
    NOT_ABSOLUTE("the request target must be an absolute path"),
    FRAGMENT("a request target carries no fragment ('#')"),
    ILLEGAL_CHARACTER("only RFC 3986 path and query characters may appear unencoded"),
    MALFORMED_PERCENT("'%' must be followed by two hex digits"),
    INVALID_UTF8("percent-encoded bytes must be valid UTF-8, without overlong forms"),
    ENCODED_SEPARATOR("an encoded '/' or '\\' would split a segment in two"),
    DOUBLE_ENCODING("a '%' that is still there after decoding (double encoding)"),
    CONTROL_CHARACTER("NUL and other control characters"),
    DOT_SEGMENT("'.' and '..' segments"),
    EMPTY_SEGMENT("an empty segment ('//')"),
    TOO_MANY_PARAMETERS("more than " + RequestTarget.MAX_QUERY_PARAMETERS + " query parameters");

    private final String description;

    TargetRefusal(String description) {
        this.description = description;
    }

    /** The exception that answers 400, with this rule's name and description in its message. */
    Refused refuse() {
        return new Refused(this);
    }

    /** A request target refused by {@link #rule()}. */
    public static final class Refused extends Exception {
        private final TargetRefusal rule;

        private Refused(TargetRefusal rule) {
            super(
                    "request target refused (" + rule.name() + "): " + rule.description,
                    null,
                    false,
                    false);
            this.rule = rule;
        }

        public TargetRefusal rule() {
            return rule;
        }
    }
}
