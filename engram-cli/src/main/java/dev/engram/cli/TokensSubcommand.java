package dev.engram.cli;

import dev.engram.access.Grants;
import dev.engram.access.Principal;
import dev.engram.access.Principals;
import dev.engram.access.Right;
import dev.engram.error.InvalidArgumentException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * Principals of {@code engram serve}: bearer tokens bound to zones with read, write or admin rights,
 * kept (as SHA-256 digests) in the store, so every server on the store follows a change within seconds.
 */
@Command(name = "tokens", mixinStandardHelpOptions = true, description = {
        "Bearer tokens for engram serve, each bound to zones (kept hashed in the store; servers follow changes within seconds).",
        "  engram tokens add ci-bot --zone team:write --zone docs:read   prints the new token once",
        "  engram tokens add ops --all-zones read                        an operator's token (/metrics, /health details)",
        "  engram tokens list                                            names, rights, creation; never tokens",
        "  engram tokens revoke ci-bot",
        "Tokens in ENGRAM_TOKENS or --tokens-file keep every right on every zone."},
        subcommands = {TokensSubcommand.Add.class, TokensSubcommand.ListTokens.class, TokensSubcommand.Revoke.class})
final class TokensSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        root.main().err().println("name a subcommand: add, list or revoke (engram tokens --help)");
        return 2;
    }

    /** The store's principals, opened without an embedder. */
    static <T> T withPrincipals(EngramCommand root, java.util.function.Function<Principals, T> work) {
        try (Main.OpenEngine opened = root.main().openEngine(root.config())) {
            return work.apply(opened.engine().principals());
        }
    }

    /** {@code ZONE:RIGHT} values into grants. */
    static Grants grants(List<String> zones, String allZones) {
        Map<String, Right> named = new LinkedHashMap<>();
        for (String zr : zones) {
            int colon = zr.lastIndexOf(':');
            Right r = colon < 0 ? null : Right.parse(zr.substring(colon + 1));
            if (r == null) {
                throw new InvalidArgumentException("--zone", "'" + zr + "' is not ZONE:RIGHT; RIGHT is read, write or admin"
                        + " (e.g. --zone team:write)");
            }
            named.merge(zr.substring(0, colon).strip(), r, (a, b) -> a.includes(b) ? a : b);
        }
        Right all = null;
        if (allZones != null) {
            all = Right.parse(allZones);
            if (all == null) {
                throw new InvalidArgumentException("--all-zones", "'" + allZones + "' is not a right; use read, write or admin");
            }
        }
        return new Grants(named, all);
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Make a principal and print its new token once (only its SHA-256 digest is stored).",
                    "Rights: --zone ZONE:RIGHT (repeatable) and/or --all-zones RIGHT; RIGHT is read, write (includes read)"
                            + " or admin (includes write; zone create, describe, delete)."})
    static final class Add implements Callable<Integer> {
        @ParentCommand
        TokensSubcommand tokens;

        @Parameters(index = "0", paramLabel = "NAME", description = "The principal's name: lowercase letters, digits, '.', '_', '-'")
        String name;

        // --zone ZONE:RIGHT (repeatable) arrives through the global --zone option: picocli lets no
        // subcommand redefine an inherited option

        @Option(names = "--all-zones", paramLabel = "RIGHT", description = "This right on every zone, present and future")
        String allZones;

        @Override
        public Integer call() {
            Grants g = grants(tokens.root.global.zones, allZones);
            List<String> saved = List.copyOf(tokens.root.global.zones);
            tokens.root.global.zones.clear(); // rights, not the zone to work in: the store opens without one
            Principals.Issued issued;
            try {
                issued = withPrincipals(tokens.root, p -> p.add(name, g));
            } finally {
                tokens.root.global.zones.addAll(saved);
            }
            Main main = tokens.root.main();
            main.err().println("principal " + issued.principal().name() + " (" + g.describe() + "); its token follows,"
                    + " shown this once: only its SHA-256 digest is stored");
            main.out().println(issued.token());
            main.out().flush();
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Principals: names, rights, creation time (never tokens).")
    static final class ListTokens implements Callable<Integer> {
        @ParentCommand
        TokensSubcommand tokens;

        @Override
        public Integer call() {
            List<Principal> all = withPrincipals(tokens.root, Principals::list);
            Main main = tokens.root.main();
            List<Object> rows = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (Principal p : all) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", p.name());
                Map<String, Object> zones = new LinkedHashMap<>();
                p.grants().zones().forEach((z, r) -> zones.put(z, r.label()));
                row.put("zones", zones);
                row.put("all_zones", p.grants().allZones() == null ? null : p.grants().allZones().label());
                row.put("created", p.created().toString());
                rows.add(row);
                text.append(p.name()).append("  ").append(p.grants().describe()).append("  created ")
                        .append(p.created()).append('\n');
            }
            if (all.isEmpty()) text.append("no principals; add one with engram tokens add NAME --zone ZONE:RIGHT\n");
            main.printer(tokens.root.config()).print(text.toString().stripTrailing(), Map.of("principals", rows));
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Remove a principal; running servers refuse its token within a few seconds.")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand
        TokensSubcommand tokens;

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        public Integer call() {
            withPrincipals(tokens.root, p -> {
                p.revoke(name);
                return null;
            });
            tokens.root.main().err().println("revoked " + name.strip() + "; servers on this store refuse its token within "
                    + Principals.DEFAULT_TTL.toSeconds() + " seconds");
            return 0;
        }
    }
}
