// Engram's OpenCode plugin, written by `engram init`; `engram uninstall` removes it (left there once edited).
// It runs Engram's hook commands: the project's briefing once per session, added to the system prompt; with
// --capture each tool call to the capture log; with the toon profile, toon's checkpoint when a turn ends.
// A hook that fails, or takes longer than TIMEOUT_MS, adds nothing and never stops OpenCode.
import { spawn } from "node:child_process"

const ENGRAM = ["/opt/engram/bin/engram"]
const SESSION_START = ["hook", "session-start", "opencode", "--profile", "native"]
const CAPTURE = ["hook", "capture", "opencode"]
const STOP = null
const TIMEOUT_MS = 30000

// Runs one hook command with the event as JSON on stdin; resolves to what it printed, or "" when it could not run.
function run(words, event, cwd) {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    let timer = null
    const finish = () => {
      if (done) return
      done = true
      if (timer) clearTimeout(timer)
      resolve(out)
    }
    let child
    try {
      child = spawn(ENGRAM[0], [...ENGRAM.slice(1), ...words], { cwd, stdio: ["pipe", "pipe", "ignore"], windowsHide: true })
    } catch {
      finish()
      return
    }
    timer = setTimeout(() => {
      out = ""
      try { child.kill() } catch {}
      finish()
    }, TIMEOUT_MS)
    child.on("error", () => {
      out = ""
      finish()
    })
    child.on("close", finish)
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk) => { out += chunk })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event))
  })
}

// The briefing in a SessionStart hook's output: {"hookSpecificOutput": {"additionalContext": "..."}}.
function briefingOf(printed) {
  try {
    const context = JSON.parse(printed)?.hookSpecificOutput?.additionalContext
    return typeof context === "string" ? context : ""
  } catch {
    return ""
  }
}

// OpenCode's tool arguments in the names Claude Code's hook events use, which engram hook capture reads.
function toolInput(args) {
  const input = { ...(args && typeof args === "object" ? args : {}) }
  if (input.filePath !== undefined && input.file_path === undefined) input.file_path = input.filePath
  if (input.newString !== undefined && input.new_string === undefined) input.new_string = input.newString
  if (input.oldString !== undefined && input.old_string === undefined) input.old_string = input.oldString
  return input
}

export const EngramMemory = async ({ directory, worktree }) => {
  const cwd = directory || worktree || process.cwd()
  const briefings = new Map()
  const briefing = (sessionID) => {
    if (!briefings.has(sessionID)) {
      const event = { hook_event_name: "SessionStart", source: "startup", session_id: sessionID, cwd }
      briefings.set(sessionID, run(SESSION_START, event, cwd).then(briefingOf))
    }
    return briefings.get(sessionID)
  }
  const hooks = {
    event: async ({ event }) => {
      const sessionID = event?.properties?.info?.id ?? event?.properties?.sessionID
      if (!sessionID) return
      if (event.type === "session.created") briefing(sessionID)
      else if (event.type === "session.deleted") briefings.delete(sessionID)
      else if (event.type === "session.idle" && STOP) {
        run(STOP, { hook_event_name: "Stop", session_id: sessionID, cwd }, cwd)
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      if (!input?.sessionID || !Array.isArray(output?.system)) return
      const text = await briefing(input.sessionID)
      if (text) output.system.push(text)
    },
  }
  if (CAPTURE) {
    // OpenCode versions that leave the arguments out of tool.execute.after's input get them from before
    const argsByCall = new Map()
    hooks["tool.execute.before"] = async (input, output) => {
      if (input?.callID) argsByCall.set(input.callID, output?.args)
    }
    hooks["tool.execute.after"] = async (input) => {
      const args = input?.args ?? argsByCall.get(input?.callID)
      argsByCall.delete(input?.callID)
      const event = { hook_event_name: "PostToolUse", session_id: input?.sessionID, cwd, tool_name: input?.tool,
        tool_input: toolInput(args) }
      run(CAPTURE, event, cwd)
    }
  }
  return hooks
}
