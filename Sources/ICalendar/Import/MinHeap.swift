/// Elements by a key, the lowest first: a binary heap (the groups by the line that completes them,
/// a zone's earliest onsets to drop).
///
/// ```swift
/// var heap = MinHeap<(line: Int, uid: String)> { $0.line }
/// heap.insert((12, "b"))
/// heap.insert((3, "a"))
/// print(heap.first!.uid)
/// // Prints "a"
/// ```
struct MinHeap<Element> {
    private var items: [Element] = []
    private let key: (Element) -> Int64

    init(key: @escaping (Element) -> Int64) {
        self.key = key
    }

    var first: Element? { items.first }
    var count: Int { items.count }
    /// The elements, in no particular order.
    var elements: [Element] { items }

    mutating func insert(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard key(items[child]) < key(items[parent]) else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the lowest element.
    mutating func removeFirst() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDown()
    }

    /// Puts `element` in place of the lowest one.
    mutating func replaceFirst(with element: Element) {
        items[0] = element
        siftDown()
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            var smallest = parent
            if left < items.count, key(items[left]) < key(items[smallest]) { smallest = left }
            if left + 1 < items.count, key(items[left + 1]) < key(items[smallest]) { smallest = left + 1 }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
