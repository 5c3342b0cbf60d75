@testable import StreakExport
import Streaks
import Testing

@Suite("Colour vision: simulations, colour differences, and the palettes checked with them")
struct ColorVisionTests {
    /// Sharma, Wu and Dalal (2005), "The CIEDE2000 Color-Difference Formula: Implementation Notes,
    /// Supplementary Test Data, and Mathematical Observations": pairs 1, 2, 3, 7, 17, 18, 19, 20, 25.
    static let sharmaPairs: [((Double, Double, Double), (Double, Double, Double), Double)] = [
        ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
        ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
        ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
        ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
        ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
        ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
        ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
        ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]

    @Test("CIEDE2000 gives Sharma's published differences, both ways round")
    func ciede2000() {
        for (first, second, expected) in Self.sharmaPairs {
            let forward = RGBColor.ciede2000((first.0, first.1, first.2), (second.0, second.1, second.2))
            let backward = RGBColor.ciede2000((second.0, second.1, second.2), (first.0, first.1, first.2))
            #expect(abs(forward - expected) < 0.0001, "\(first) \(second)")
            #expect(abs(backward - expected) < 0.0001)
        }
        #expect(RGBColor.white.difference(from: .white) == 0)
        #expect(abs(RGBColor.white.lab.l - 100) < 0.01 && abs(RGBColor.white.lab.a) < 0.01 && abs(RGBColor.white.lab.b) < 0.01)
    }

    @Test("The simulations keep grays, merge red with green for protanopia and deuteranopia, keep blue from yellow")
    func simulations() throws {
        let red = try #require(RGBColor(hex: "#D70015")), green = try #require(RGBColor(hex: "#1E8336"))
        let blue = try #require(RGBColor(hex: "#1F5FD6")), yellow = try #require(RGBColor(hex: "#F2C200"))
        for vision in ColorVision.allCases {
            for gray in [RGBColor.white, .black, RGBColor(red: 0x80, green: 0x80, blue: 0x80)] {
                let seen = gray.seen(with: vision)
                #expect(gray.difference(from: seen) < 1, "\(vision) changes the gray \(gray) to \(seen)")
            }
            #expect(blue.seen(with: vision).difference(from: yellow.seen(with: vision)) > 30, "\(vision)")
        }
        #expect(red.difference(from: green) > 50)
        for vision in [ColorVision.protanopia, .deuteranopia] {
            #expect(red.seen(with: vision).difference(from: green.seen(with: vision)) < 16, "\(vision)")
        }
        #expect(red.seen(with: .typical) == red)
        // Deuteranopia turns pure green into a dull yellow: red and green channels close, blue low.
        let pureGreen = RGBColor(red: 0, green: 255, blue: 0).seen(with: .deuteranopia)
        #expect(abs(Int(pureGreen.red) - Int(pureGreen.green)) < 40 && pureGreen.blue < 80)
    }

    @Test("Every palette but the tutorial's keeps its solid fills (levels, frozen, over the limit) apart for typical vision, protanopia and deuteranopia",
          arguments: ["standard", "github", "high-contrast"])
    func palettesStayApart(name: String) throws {
        let palette = try #require(ReportPalette.named(name))
        for dark in [false, true] {
            let fills = (palette.levels + [palette.frozen, palette.over]).map { dark ? $0.dark.fill : $0.fill }
            for vision in [ColorVision.typical, .protanopia, .deuteranopia] {
                for (index, first) in fills.enumerated() {
                    for second in fills[(index + 1)...] {
                        let difference = first.seen(with: vision).difference(from: second.seen(with: vision))
                        #expect(difference >= 8, "\(name)\(dark ? " dark" : ""): \(first) and \(second) for \(vision): ΔE \(difference)")
                    }
                }
            }
            // Rest and skipped days are told apart by shape (an outline, a hatch), not by one more shade.
            #expect(palette.rest.pattern == .outline && palette.skipped.pattern == .hatched)
        }
    }

    @Test("Why the tutorial's palette is not the default: its red and green are close for deuteranopia")
    func tutorialPalette() {
        let (met, partial) = (ReportPalette.tutorial.met.fill, ReportPalette.tutorial.partial.fill)
        #expect(met.difference(from: partial) > 40)
        #expect(met.seen(with: .deuteranopia).difference(from: partial.seen(with: .deuteranopia)) < 10)
        // ... and its "none" gray is as dark as "met": a year of no points reads as heavy as a year of goals met.
        #expect(abs(ReportPalette.tutorial.none.fill.lab.l - met.lab.l) < 5)
        #expect(ReportPalette.standard.none.fill.lab.l - ReportPalette.standard.met.fill.lab.l > 50)
    }

    @Test("The standard levels go from light to deep: lightness falls at every step, in light mode; rises in dark mode")
    func levelsAreOrdered() {
        for palette in [ReportPalette.standard, .github, .highContrast] {
            let light = palette.levels.map(\.fill.lab.l), dark = palette.levels.map(\.dark.fill.lab.l)
            #expect(zip(light, light.dropFirst()).allSatisfy { $0 > $1 + 5 }, "\(palette.name): \(light)")
            #expect(zip(dark, dark.dropFirst()).allSatisfy { $0 + 5 < $1 }, "\(palette.name) dark: \(dark)")
        }
    }

    @Test("Palettes by name, and nothing else")
    func names() {
        #expect(ReportPalette.all.map(\.name) == ["standard", "github", "high-contrast", "tutorial"])
        #expect(ReportPalette.named("github") == .github)
        #expect(ReportPalette.named("GitHub") == nil && ReportPalette.named("") == nil)
        #expect(ReportPalette.github.levels.map(\.fill.description) == ["#EBEDF0", "#9BE9A8", "#40C463", "#30A14E", "#216E39"])
    }
}
