package dev.engram.engine.lifecycle;

/**
 * One job of a maintenance cycle (decay, tier moves, garbage collection, duplicate merge, compression,
 * contradiction detection, …). A step is a configured instance: its constants come from the policy it was
 * built with, so one engine serves every profile's lifecycle. A step honours {@link MaintenanceContext#dryRun()}
 * by reporting exactly what it would change and writing nothing.
 */
public interface MaintenanceStep {
    /** Short wire name used in reports and on the command line, e.g. {@code decay}, {@code merge}. */
    String name();

    StepReport run(MaintenanceContext context);
}
