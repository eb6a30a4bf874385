#if SQLite  // the `SQLite` trait: Package.swift
import CourierSandbox
import IntegrationTestSupport
import Foundation
import SeoulCultureAPI
import Testing

extension SeoulSuite {
    @Suite("favourites in SQLite: restarts and concurrent writers")
    struct FavouritesStoreTests {
        func temporaryFile() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("raon-fav-\(UUID().uuidString)/favourites.sqlite")
        }

        @Test("favourites survive closing and reopening the store, with their data")
        func survivesRestart() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 300])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let first = try await FavouritesStore.open(file: file)
            #expect(try await first.add(programs[10]))
            #expect(try await first.add(programs[3]))
            #expect(try await first.add(programs[3]) == false)
            try await first.close()

            let reopened = try await FavouritesStore.open(file: file)
            let saved = try await reopened.all()
            #expect(saved == [programs[3], programs[10]])
            #expect(try await reopened.remove(id: programs[3].id))
            #expect(try await reopened.remove(id: programs[3].id) == false)
            let soon = try await reopened.starting(from: programs[10].startDate, withinDays: 0)
            #expect(soon.map(\.id) == [programs[10].id])
            try await reopened.close()
        }

        @Test("contains(_:) and ids() tell a favourite from another program, across processes' writes")
        func containsAndIDs() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 60])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let store = try await FavouritesStore.open(file: file)
            #expect(try await store.ids().isEmpty)
            #expect(try await store.contains(programs[5].id) == false)
            try await store.add(programs[5])
            try await store.add(programs[7])
            // Another connection (as another process would) removes one.
            let other = try await FavouritesStore.open(file: file)
            try await other.remove(id: programs[7].id)
            try await other.close()
            #expect(try await store.contains(programs[5].id))
            #expect(try await store.contains(programs[7].id) == false)
            #expect(try await store.contains(programs[6].id) == false)
            #expect(try await store.ids() == [programs[5].id])
            #expect(try await store.contains("'; DROP TABLE favourites; --") == false)
            #expect(try await store.ids() == [programs[5].id])
            try await store.close()
        }

        @Test("a saved favourite that no longer decodes is reported by id, not dropped")
        func unreadableReported() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 50])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let store = try await FavouritesStore.open(file: file)
            #expect(try await store.add(programs[1]))
            #expect(try await store.add(programs[2]))
            try await store.close()
            // Damage one row as another program (or a disk error) could: Python's own SQLite.
            let script =
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE favourites SET program='{not json' WHERE id=?\", (sys.argv[2],)); c.commit()"
            let run = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path, programs[2].id],
                scratch: file.deletingLastPathComponent())
            #expect(run.status == 0)
            let reopened = try await FavouritesStore.open(file: file)
            let contents = try await reopened.contents()
            #expect(contents.programs == [programs[1]])
            #expect(contents.unreadable == [programs[2].id])
            try await reopened.close()
        }

        /// Two connections in one process take the same file locks as two processes would (SQLite
        /// locks per connection, through the file), so this is the two-`fav add` race.
        @Test("two writers adding at the same time lose nothing")
        func concurrentWriters() async throws {
            let programs = try await withSeoulSandbox { sandbox in
                try await sandbox.seoulControl(["rows": 300])
                return try await sandbox.seoul(today: longAgo).allPrograms()
            }
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let a = try await FavouritesStore.open(file: file)
            let b = try await FavouritesStore.open(file: file)
            async let addedByA: Void = { for program in programs.prefix(40) { try await a.add(program) } }()
            async let addedByB: Void = { for program in programs.dropFirst(20).prefix(40) { try await b.add(program) } }()
            _ = try await (addedByA, addedByB)
            try await a.close()
            try await b.close()
            let check = try await FavouritesStore.open(file: file)
            #expect(Set(try await check.all().map(\.id)) == Set(programs.prefix(60).map(\.id)))
            try await check.close()
        }

        @Test("the default file follows XDG_DATA_HOME, then ~/.local/share")
        func defaultFile() {
            #expect(FavouritesStore.defaultFile(environment: ["XDG_DATA_HOME": "/tmp/x"]).path == "/tmp/x/courier/raon/favourites.sqlite")
            #expect(FavouritesStore.defaultFile(environment: [:]).path.hasSuffix("/.local/share/courier/raon/favourites.sqlite"))
        }
    }
}
#endif  // SQLite
