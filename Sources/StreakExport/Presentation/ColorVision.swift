import Foundation

/// How a person sees colour: typical trichromatic vision, or one of the three dichromacies.
///
/// Palettes are checked against the simulations (``RGBColor/seen(with:)``): about 1 in 12 men has a
/// red-green deficiency, so statuses that differ only by red against green are lost on them.
///
/// ```swift
/// let red = RGBColor(hex: "#D70015")!, green = RGBColor(hex: "#1E8336")!
/// print(red.difference(from: green) > 40, red.seen(with: .deuteranopia).difference(from: green.seen(with: .deuteranopia)) < 12)
/// // Prints "true true"
/// ```
public enum ColorVision: String, Hashable, Sendable, CaseIterable {
    /// Typical trichromatic vision.
    case typical
    /// No long-wavelength (red) cones.
    case protanopia
    /// No medium-wavelength (green) cones: the most common dichromacy.
    case deuteranopia
    /// No short-wavelength (blue) cones: rare.
    case tritanopia

    /// Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of
    /// Color Vision Deficiency", severity 1: matrices over linear sRGB.
    fileprivate var matrix: [[Double]]? {
        switch self {
        case .typical: nil
        case .protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
        case .deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
        case .tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        }
    }
}

extension RGBColor {
    /// The colour as `vision` sees it (Machado et al. 2009, full severity), as an sRGB colour.
    public func seen(with vision: ColorVision) -> RGBColor {
        guard let matrix = vision.matrix else { return self }
        let linear = [red, green, blue].map { Self.linear($0) }
        let channels = matrix.map { row in
            Self.encoded(row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2])
        }
        return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// How different two colours look: the CIEDE2000 colour difference ΔE₀₀ of their CIELAB values
    /// (D65). About 2 is just noticeable side by side; small cells of a heatmap need 8 or more.
    public func difference(from other: RGBColor) -> Double {
        Self.ciede2000(lab, other.lab)
    }

    /// An sRGB channel, 0–255, as linear light, 0–1.
    static func linear(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : Foundation.pow((value + 0.055) / 1.055, 2.4)
    }

    /// Linear light (clamped to 0–1) as an sRGB channel.
    static func encoded(_ linear: Double) -> UInt8 {
        let value = min(1, max(0, linear))
        let encoded = value <= 0.0031308 ? 12.92 * value : 1.055 * Foundation.pow(value, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    /// CIELAB (D65 white) of the colour.
    var lab: (l: Double, a: Double, b: Double) {
        let (r, g, b) = (Self.linear(red), Self.linear(green), Self.linear(blue))
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216 / 24389 ? Foundation.cbrt(t) : (24389 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIEDE2000 (Sharma, Wu and Dalal's formulation) with kL = kC = kH = 1.
    static func ciede2000(_ first: (l: Double, a: Double, b: Double), _ second: (l: Double, a: Double, b: Double)) -> Double {
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let c1 = (first.a * first.a + first.b * first.b).squareRoot()
        let c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let meanC7 = Foundation.pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + Foundation.pow(25, 7))).squareRoot())
        let a1 = (1 + g) * first.a, a2 = (1 + g) * second.a
        let c1p = (a1 * a1 + first.b * first.b).squareRoot(), c2p = (a2 * a2 + second.b * second.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            guard a != 0 || b != 0 else { return 0 }
            let h = degrees(Foundation.atan2(b, a))
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(first.b, a1), h2 = hue(second.b, a2)
        let deltaL = second.l - first.l
        let deltaC = c2p - c1p
        var deltaH = 0.0
        if c1p * c2p != 0 {
            deltaH = h2 - h1
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaBigH = 2 * (c1p * c2p).squareRoot() * Foundation.sin(radians(deltaH / 2))
        let meanL = (first.l + second.l) / 2
        let meanC = (c1p + c2p) / 2
        var meanH = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 {
                meanH = (h1 + h2) / 2
            } else {
                meanH = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
            }
        }
        let t = 1 - 0.17 * Foundation.cos(radians(meanH - 30)) + 0.24 * Foundation.cos(radians(2 * meanH))
            + 0.32 * Foundation.cos(radians(3 * meanH + 6)) - 0.20 * Foundation.cos(radians(4 * meanH - 63))
        let deltaTheta = 30 * Foundation.exp(-Foundation.pow((meanH - 275) / 25, 2))
        let meanC7p = Foundation.pow(meanC, 7)
        let rc = 2 * (meanC7p / (meanC7p + Foundation.pow(25, 7))).squareRoot()
        let sl = 1 + 0.015 * Foundation.pow(meanL - 50, 2) / (20 + Foundation.pow(meanL - 50, 2)).squareRoot()
        let sc = 1 + 0.045 * meanC
        let sh = 1 + 0.015 * meanC * t
        let rt = -Foundation.sin(radians(2 * deltaTheta)) * rc
        let (l, c, h) = (deltaL / sl, deltaC / sc, deltaBigH / sh)
        return (l * l + c * c + h * h + rt * c * h).squareRoot()
    }

    /// The nearest colour of the xterm 256-colour palette (its 6×6×6 cube and 24 grays), which
    /// every colour terminal shows (24-bit colour is not everywhere).
    public var xterm256Index: Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(value)) < abs(levels[$1] - Int(value)) } ?? 0
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = RGBColor(red: UInt8(levels[r]), green: UInt8(levels[g]), blue: UInt8(levels[b]))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grayStep = min(23, max(0, (average - 8 + 5) / 10))
        let grayValue = UInt8(8 + 10 * grayStep)
        let gray = RGBColor(red: grayValue, green: grayValue, blue: grayValue)
        return difference(from: gray) < difference(from: cube) ? 232 + grayStep : 16 + 36 * r + 6 * g + b
    }
}
