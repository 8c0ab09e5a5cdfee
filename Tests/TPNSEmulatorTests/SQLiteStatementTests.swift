import Testing

@testable import TPNSEmulator

@Suite("SQLiteStatement: texts bound in place")
struct SQLiteStatementTests {
  @Test("texts of every size, empty and not ASCII, bound again and again, read back as bound")
  func textsRoundTrip() throws {
    let database = try SQLiteConnection(path: ":memory:")
    try database.execute("CREATE TABLE t (n INTEGER, a TEXT, b TEXT);")
    let insert = try database.statement("INSERT INTO t (n, a, b) VALUES (?1, ?2, ?3)")
    let rows: [(String, String?)] = [
      ("ios", "en"), ("", "x"), (String(repeating: "é", count: 300), "y"), ("z", nil),
      (String(repeating: "0123456789", count: 2_000), ""), ("short", "again"),
    ]
    for (number, row) in rows.enumerated() {
      try insert.run([.integer(Int64(number)), .text(row.0), row.1.map { .text($0) } ?? .null])
    }
    // Fewer values than parameters: the one not bound again is NULL, not the last text.
    try insert.run([.integer(99), .text("alone")])
    let read = try database.statement("SELECT a, b FROM t ORDER BY n").rows([]) { row in
      [row.text(0), row.text(1)]
    }
    #expect(read == rows.map { [$0.0, $0.1] } + [["alone", nil]])
  }
}
