package dev.engram.error;

/** An argument broke a rule; the message reads {@code <field> <problem>}. */
public final class InvalidArgumentException extends EngramUserException {
    private final String field;

    public InvalidArgumentException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
