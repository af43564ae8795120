package dev.engram.engine.lifecycle;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the maintenance cycle in process, on a daemon thread: the first check after {@code firstDelay}
 * (a server's start stays quick), then a check every {@link #checkPeriod} of the interval. Each check runs a
 * cycle only when none ran in the last interval in any process sharing the store and nobody holds the lease
 * ({@link Maintenance#runIfDue}), so several servers on one store run one cycle per interval between them,
 * and when the process that ran it stops another takes over. Logs to stderr (through the logger) only:
 * stdout belongs to MCP.
 */
public final class MaintenanceScheduler implements AutoCloseable {
    /** The environment variable that sets the interval ({@code 6h}, {@code 30m}, {@code 1d}, {@code PT6H}) or turns the schedule {@code off}. */
    public static final String ENV = "ENGRAM_MAINTENANCE_INTERVAL";
    private static final Logger log = LoggerFactory.getLogger(MaintenanceScheduler.class);
    private static final Pattern SHORT = Pattern.compile("(\\d{1,6})\\s*([smhd])");
    private final ScheduledExecutorService executor;
    /** Cycles this process ran and that failed, and when the last one ran (epoch ms, 0: none): for /metrics. */
    private static final java.util.concurrent.atomic.AtomicLong RUNS = new java.util.concurrent.atomic.AtomicLong(),
            FAILURES = new java.util.concurrent.atomic.AtomicLong(), LAST_RUN = new java.util.concurrent.atomic.AtomicLong();

    /** Maintenance cycles this process has run (another process holding the store's lease runs the others). */
    public static long runs() {
        return RUNS.get();
    }

    public static long failures() {
        return FAILURES.get();
    }

    /** When this process last ran a cycle, in epoch milliseconds; 0 if it has run none. */
    public static long lastRunEpochMillis() {
        return LAST_RUN.get();
    }

    private MaintenanceScheduler(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    /** Checks at a tenth of the interval, between one minute and one hour, so a take-over is never late by much. */
    static Duration checkPeriod(Duration interval) {
        Duration tenth = interval.dividedBy(10);
        if (tenth.compareTo(Duration.ofMinutes(1)) < 0) return interval.compareTo(Duration.ofMinutes(1)) < 0 ? interval : Duration.ofMinutes(1);
        return tenth.compareTo(Duration.ofHours(1)) > 0 ? Duration.ofHours(1) : tenth;
    }

    public static MaintenanceScheduler start(Maintenance maintenance, LifecyclePolicy policy, Duration interval,
                                             Duration firstDelay) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-maintenance");
            t.setDaemon(true);
            return t;
        });
        long period = checkPeriod(interval).toMillis();
        executor.scheduleWithFixedDelay(() -> {
            try {
                maintenance.runIfDue(policy, interval).ifPresent(r -> {
                    RUNS.incrementAndGet();
                    LAST_RUN.set(System.currentTimeMillis());
                    log.info("maintenance ({} policy): {} memories changed: {}", r.policy(), r.changed(), summary(r));
                });
            } catch (RuntimeException e) {
                // the next check tries again; a failing cycle must not end the schedule
                FAILURES.incrementAndGet();
                log.warn("maintenance cycle failed: {}", e.toString());
            }
        }, firstDelay.toMillis(), period, TimeUnit.MILLISECONDS);
        log.debug("maintenance scheduled every {} ({} policy), first check in {}", interval, policy.name(), firstDelay);
        return new MaintenanceScheduler(executor);
    }

    static String summary(MaintenanceReport r) {
        StringBuilder b = new StringBuilder();
        for (StepReport s : r.steps()) {
            if (b.length() > 0) b.append(", ");
            b.append(s.step()).append(' ').append(s.changed()).append('/').append(s.examined());
        }
        return b.toString();
    }

    /**
     * The interval {@link #ENV} asks for: empty for {@code off}; {@code fallback} when unset or blank.
     * @throws IllegalArgumentException saying what to send, for anything else
     */
    public static Optional<Duration> interval(String value, Duration fallback) {
        if (value == null || value.isBlank()) return Optional.of(fallback);
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("off") || v.equals("0") || v.equals("false") || v.equals("never")) return Optional.empty();
        Duration d;
        Matcher m = SHORT.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        } else {
            try {
                d = Duration.parse(v.toUpperCase(Locale.ROOT));
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException(ENV + "=" + value + " is not an interval; send e.g. 6h, 30m, 1d or off");
            }
        }
        if (d.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new IllegalArgumentException(ENV + "=" + value + " is under 10 seconds; send e.g. 6h, 30m, 1d or off");
        }
        return Optional.of(d);
    }

    /** Stops the checks and waits, bounded, for a cycle in progress to finish (each of its writes is atomic anyway). */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) log.warn("maintenance cycle still running after 10 s; closing under it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
