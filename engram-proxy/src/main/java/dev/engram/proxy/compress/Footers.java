package dev.engram.proxy.compress;

import java.util.List;

/** The footers compressed results end with; agents parse them, so their shapes are fixed here. */
public final class Footers {
    /**
     * Split a progressive chunk from its footer on this token, never on {@code \n---\n} alone
     * (a markdown rule or YAML separator looks the same).
     */
    public static final String PROGRESSIVE_FOOTER_TOKEN = "\n---\n[progressive: chars=";
    /** Room kept for a footer when a strategy sizes its body. */
    public static final int RESERVE = 200;

    private Footers() {
    }

    public static String progressive(String key, int from, int to, int total, List<String> remainingTitles) {
        boolean more = to < total;
        StringBuilder sb = new StringBuilder(PROGRESSIVE_FOOTER_TOKEN).append(from).append('-').append(to).append('/')
                .append(total).append(" | remaining=").append(total - to).append(" | has_more=").append(more)
                .append(" | key=").append(key).append(']');
        if (more) {
            if (!remainingTitles.isEmpty()) {
                sb.append("\n[Remaining: ");
                int len = 0;
                for (int i = 0; i < remainingTitles.size() && len < 120; i++) {
                    if (i > 0) sb.append(", ");
                    String t = "\"" + remainingTitles.get(i) + "\"";
                    sb.append(t);
                    len += t.length();
                }
                sb.append(']');
            }
            sb.append("\n[-> stm_proxy_read_more(key=\"").append(key).append("\", offset=").append(to).append(")]");
        }
        return sb.toString();
    }

    /** For any lossy view: where the exact original is. */
    public static String original(String key, int totalChars, String what) {
        return "\n---\n[" + what + " | key=" + key + "; full original: " + totalChars
                + " chars -> stm_proxy_read_more(key=\"" + key + "\", offset=0)]";
    }
}
