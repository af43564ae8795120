package dev.engram.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectBranchTest {
    @TempDir
    Path dir;

    @Test
    void theBranchIsReadFromHeadFoundByWalkingUpAndFollowsASwitch() throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve(".git/HEAD"), "ref: refs/heads/feature/login\n");
        Path nested = Files.createDirectories(dir.resolve("src/main/java"));
        ProjectBranch branch = new ProjectBranch(nested);
        assertEquals("feature/login", branch.current());
        Files.writeString(dir.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        assertEquals("main", branch.current(), "read on every call: the agent may switch branches");
    }

    @Test
    void aDetachedHeadGivesTheShortCommitAndAWorktreeFollowsItsGitFile() throws IOException {
        Path real = Files.createDirectories(dir.resolve("repo/.git/worktrees/wt"));
        Files.writeString(real.resolve("HEAD"), "0123456789abcdef0123456789abcdef01234567\n");
        Path worktree = Files.createDirectories(dir.resolve("wt"));
        Files.writeString(worktree.resolve(".git"), "gitdir: " + real + "\n");
        assertEquals("0123456789ab", new ProjectBranch(worktree).current());
    }

    @Test
    void noRepositoryOrAStrangeHeadRecordsNoBranch() throws IOException {
        Path plain = Files.createDirectories(dir.resolve("plain"));
        // the temp dir may itself sit inside a checkout; an own .git with junk in HEAD stops the walk here
        Files.createDirectories(plain.resolve(".git"));
        Files.writeString(plain.resolve(".git/HEAD"), "garbage");
        assertNull(new ProjectBranch(plain).current());
        Path noHead = Files.createDirectories(dir.resolve("nohead/.git"));
        assertNull(new ProjectBranch(noHead.getParent()).current());
    }

    @Test
    void theSessionJoinsTheClientAndTheTransportSession() {
        assertEquals("claude-code/3f2a", Caller.session("claude-code", "3f2a"));
        assertEquals("claude-code", Caller.session("claude-code", null));
        assertEquals("3f2a", Caller.session(" ", "3f2a"));
        assertNull(Caller.session(null, ""));
    }
}
