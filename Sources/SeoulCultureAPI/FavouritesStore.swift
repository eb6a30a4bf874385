#if SQLite  // the `SQLite` trait: Package.swift
public import Foundation
public import Logging
import NIOPosix
import SQLiteNIO

/// Raon's favourites: a SQLite file (sqlite-nio) holding a copy of each favourite program, so
/// they survive restarts and can be listed offline. Safe under concurrent use from several
/// processes: WAL mode, a busy timeout (a writer waits for another instead of failing), and
/// every change is one statement (atomic).
///
/// ```swift
/// let favourites = try await FavouritesStore.open(file: FavouritesStore.defaultFile())
/// try await favourites.add(program)
/// let saved = try await favourites.all()
/// try await favourites.close()
/// ```
public actor FavouritesStore {
    private let connection: SQLiteConnection
    private var closed = false

    /// `$XDG_DATA_HOME/courier/raon/favourites.sqlite`, or `~/.local/share/courier/raon/…`.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("courier/raon/favourites.sqlite")
    }

    /// Opens (creating if needed) the store at `file`.
    public static func open(file: URL, logger: Logger = Logger(label: "courier.raon.favourites")) async throws -> FavouritesStore {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)  // sqlite-nio logs every statement at debug
        let connection = try await SQLiteConnection.open(
            storage: .file(path: file.path), threadPool: threadPool, logger: quiet, on: MultiThreadedEventLoopGroup.singleton.any())
        let store = FavouritesStore(connection: connection)
        do {
            try await store.prepare()
        } catch {
            try? await connection.close()
            throw error
        }
        return store
    }

    /// The threads SQLite's blocking calls run on: the store's own, not `NIOThreadPool.singleton`.
    /// A writer waiting out another's lock sleeps in its thread (up to the busy timeout); on the
    /// shared two-thread singleton that held up every other SQLite user in the process — in the
    /// whole `swift test`, the sandbox's accounts database, whose calls then timed out.
    private static let threadPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    private func prepare() async throws {
        // First, so every later statement waits for a concurrent writer instead of failing with SQLITE_BUSY.
        _ = try await connection.query("PRAGMA busy_timeout = 15000")
        // Switching a new file to WAL takes a lock the busy timeout does not always wait for: two
        // processes opening a new store at once saw "database is locked" here (a whole-suite run
        // on 2 cores). A few short retries; a real failure still surfaces.
        for attempt in 1...20 {
            do {
                _ = try await connection.query("PRAGMA journal_mode = WAL")
                break
            } catch  where attempt < 20 && String(describing: error).contains("locked") {
                try await Task.sleep(for: .milliseconds(50 * attempt))
            }
        }
        _ = try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS favourites (
                id TEXT PRIMARY KEY,
                program TEXT NOT NULL,
                start_date TEXT NOT NULL,
                added_at REAL NOT NULL
            )
            """)
    }

    /// Adds `program` (or refreshes its saved copy); true when it was not a favourite before.
    @discardableResult
    public func add(_ program: CulturalProgram) async throws -> Bool {
        let data = String(decoding: try JSONEncoder().encode(program), as: UTF8.self)
        let existed = try await connection.query("SELECT 1 FROM favourites WHERE id = ?", [.text(program.id)]).isEmpty == false
        _ = try await connection.query(
            """
            INSERT INTO favourites (id, program, start_date, added_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET program = excluded.program, start_date = excluded.start_date
            """, [.text(program.id), .text(data), .text(program.startDate.description), .float(Date().timeIntervalSince1970)])
        return !existed
    }

    /// Removes the favourite `id`; false when it was not one.
    @discardableResult
    public func remove(id: String) async throws -> Bool {
        try await connection.query("DELETE FROM favourites WHERE id = ? RETURNING id", [.text(id)]).isEmpty == false
    }

    /// Whether the program `id` is a favourite (the app's filled star on a program's page).
    public func contains(_ id: String) async throws -> Bool {
        try await connection.query("SELECT 1 FROM favourites WHERE id = ?", [.text(id)]).isEmpty == false
    }

    /// The ids of every favourite, read in one query: to mark a whole list (a star beside each
    /// favourite, as the app's calendar list did) without a query per program.
    public func ids() async throws -> Set<String> {
        Set(try await connection.query("SELECT id FROM favourites").compactMap { $0.column("id")?.string })
    }

    /// Every favourite that can be read, by start date then title (``contents()`` also names the
    /// ones that cannot).
    public func all() async throws -> [CulturalProgram] {
        try await contents().programs
    }

    /// What the store holds: the favourites, and the ids of saved rows that no longer decode
    /// (written by another version, or damaged) — reported, never silently dropped.
    public func contents() async throws -> (programs: [CulturalProgram], unreadable: [String]) {
        let rows = try await connection.query("SELECT id, program FROM favourites ORDER BY start_date, id")
        let decoder = JSONDecoder()
        var programs: [CulturalProgram] = []
        var unreadable: [String] = []
        for row in rows {
            if let text = row.column("program")?.string, let program = try? decoder.decode(CulturalProgram.self, from: Data(text.utf8)) {
                programs.append(program)
            } else {
                unreadable.append(row.column("id")?.string ?? "?")
            }
        }
        return (programs.sorted { ($0.startDate, $0.title) < ($1.startDate, $1.title) }, unreadable)
    }

    /// Favourites that start today or within `days` days (Raon's start-day reminder).
    public func starting(from today: SeoulDay, withinDays days: Int) async throws -> [CulturalProgram] {
        let last = today.adding(days: max(0, days))
        return try await all().filter { $0.startDate >= today && $0.startDate <= last }
    }

    /// Closes the file; call it before the store goes away.
    public func close() async throws {
        guard !closed else { return }
        closed = true
        try await connection.close()
    }
}
#endif  // SQLite
