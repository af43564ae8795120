package dev.engram.proxy.upstream;

/** The lists an upstream can announce a change of ({@code notifications/<kind>/list_changed}). */
public enum ListKind {
    TOOLS, RESOURCES, PROMPTS
}
