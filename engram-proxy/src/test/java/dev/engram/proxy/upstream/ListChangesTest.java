package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An upstream may announce a change before the session is listening (server-everything does at once). */
class ListChangesTest {
    @Test
    void aChangeAnnouncedBeforeAnyoneListensIsHandedOverOnceThenChangesArriveAsTheyCome() {
        ListChanges changes = new ListChanges();
        changes.changed(ListKind.TOOLS);
        changes.changed(ListKind.TOOLS);
        changes.changed(ListKind.PROMPTS);
        List<ListKind> heard = new ArrayList<>();
        changes.listen(heard::add);
        assertEquals(List.of(ListKind.TOOLS, ListKind.PROMPTS), heard, "each kind once, in enum order");
        changes.changed(ListKind.RESOURCES);
        assertEquals(List.of(ListKind.TOOLS, ListKind.PROMPTS, ListKind.RESOURCES), heard);
    }
}
