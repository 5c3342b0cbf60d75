/// A rectangle in integer points: origin at the top left, y growing downwards.
///
/// A frame covers the half-open ranges `x..<x + width` and `y..<y + height`, so frames that touch
/// do not overlap:
///
/// ```swift
/// let header = LayoutFrame(x: 0, y: 0, width: 390, height: 44)
/// let cell = LayoutFrame(x: 0, y: 44, width: 55, height: 55)
/// print(header.intersects(cell), header.maxY, cell)
/// // Prints "false 44 (x: 0, y: 44, width: 55, height: 55)"
/// ```
public struct LayoutFrame: Hashable, Sendable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width (a frame with a width or height of 0 or less is empty).
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a frame.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge, `x`.
    public var minX: Int { x }
    /// The top edge, `y`.
    public var minY: Int { y }
    /// The right edge (exclusive): `x + width`.
    public var maxX: Int { x + width }
    /// The bottom edge (exclusive): `y + height`.
    public var maxY: Int { y + height }
    /// The area, `width × height` (0 for an empty frame).
    public var area: Int { isEmpty ? 0 : width * height }

    /// Whether the frame covers no point: its width or height is 0 or less.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the two frames share a point; empty frames intersect nothing.
    ///
    /// ```swift
    /// let viewport = LayoutFrame(x: 0, y: 100, width: 390, height: 0)
    /// print(viewport.intersects(LayoutFrame(x: 0, y: 0, width: 390, height: 500)))
    /// // Prints "false"
    /// ```
    public func intersects(_ other: LayoutFrame) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The frame moved by `dx`, `dy`.
    public func offsetBy(dx: Int = 0, dy: Int = 0) -> LayoutFrame {
        LayoutFrame(x: x + dx, y: y + dy, width: width, height: height)
    }
}

extension LayoutFrame: Codable {}

extension LayoutFrame: CustomStringConvertible {
    /// `(x: 0, y: 44, width: 55, height: 55)`.
    public var description: String {
        "(x: \(x), y: \(y), width: \(width), height: \(height))"
    }
}
