import SignpadSystemd
import Testing

@Suite struct JournalTests {
    /// signpad's metadata keys as journal fields: capitals, digits and underscores, at most 64.
    @Test func aKeyBecomesAFieldNameTheJournalTakes() {
        #expect(Journal.fieldName("idle_seconds", prefix: "SIGNPAD_") == "SIGNPAD_IDLE_SECONDS")
        #expect(Journal.fieldName("exportFolder", prefix: "SIGNPAD_") == "SIGNPAD_EXPORTFOLDER")
        #expect(Journal.fieldName("a-b.c é", prefix: "SIGNPAD_") == "SIGNPAD_A_B_C__")
        #expect(Journal.fieldName(String(repeating: "k", count: 100), prefix: "SIGNPAD_").count == 64)
    }
}
