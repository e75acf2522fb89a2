import Testing

@testable import HTTPServer

@Suite struct TargetTableTests {
    @Test func everyKeyIsFoundAndNothingElse() {
        let keys = ["/static/forms.css", "/static/forms.js", "/static/img/logo.svg", "/static/a"]
        let table = TargetTable(keys.enumerated().map { (key: $1, value: $0) })
        for (index, key) in keys.enumerated() { #expect(table.value(for: key) == index) }
        for miss in [
            "", "/", "/static/", "/static/forms", "/static/forms.css/", "/static/forms.cssx", "/STATIC/forms.css",
            "/static/forms.css?v=1", "/forms/event", "/static/b",
        ] {
            #expect(table.value(for: miss) == nil, "\(miss)")
        }
    }

    @Test func aRepeatedKeyKeepsItsFirstValue() {
        let table = TargetTable([(key: "/a", value: 1), (key: "/a", value: 2)])
        #expect(table.value(for: "/a") == 1)
    }

    /// The empty key is a key like another (no bytes to compare), and a target longer than every key
    /// is not looked up at all.
    @Test func anEmptyKeyAndTooLongTargets() {
        let table = TargetTable([(key: "", value: 1), (key: "/a", value: 2)])
        #expect(table.value(for: "") == 1)
        #expect(table.value(for: "/a") == 2)
        #expect(table.value(for: "/") == nil)
        #expect(table.value(for: "/ab") == nil)
        #expect(table.count == 2)
    }

    @Test func anEmptyTableFindsNothing() {
        let table = TargetTable<Int>([])
        #expect(table.count == 0)
        #expect(table.value(for: "/static/forms.css") == nil)
    }

    /// Thousands of keys share few buckets' worth of hash bits: chains are walked and compared whole.
    @Test func manyKeysAreAllFound() {
        let keys = (0..<3000).map { "/static/file-\($0).txt" }
        let table = TargetTable(keys.enumerated().map { (key: $1, value: $0) })
        #expect(keys.enumerated().allSatisfy { table.value(for: $1) == $0 })
        #expect(table.value(for: "/static/file-3000.txt") == nil)
    }
}
