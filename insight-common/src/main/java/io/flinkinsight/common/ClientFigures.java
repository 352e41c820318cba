package io.flinkinsight.common;

import java.io.InputStream;

/**
 * The interactive client's figures, declared once in {@code client-figures.json} beside this class:
 * the client registers exactly these, the plugin's API serves exactly these, and the panel's types
 * are generated from the file. Opened through this class, so the file moves with it when a jar
 * shades this module under its own package.
 */
public final class ClientFigures {

    /** The file's name, beside this class. */
    public static final String RESOURCE = "client-figures.json";

    private ClientFigures() {}

    /** The declaration's JSON; the caller closes it. */
    public static InputStream open() {
        InputStream in = ClientFigures.class.getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException(
                    RESOURCE
                            + " is missing beside "
                            + ClientFigures.class.getName()
                            + ": the jar was built without it");
        }
        return in;
    }
}
