/// What differs between the systems Courier runs on, in one place: each function is a few lines,
/// and the branches for Apple platforms — which no machine here compiles — are only these
/// (`FileStatus.swift`: a status's times; `CCourierPlatform.c`: no `sync_file_range`). The
/// functions live in extensions beside what they serve (`Platform+WriteBack.swift`,
/// `FileStatus.swift`).
package enum Platform {}
