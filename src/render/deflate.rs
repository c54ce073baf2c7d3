//! A zlib (deflate) compressor made for board pictures.
//!
//! General compressors search for repeats anywhere; a board picture's repeats are mostly in
//! known places: the row above (a square is 36 identical-ish rows), the same row of the square
//! two columns left (same shade, often the same piece), and long runs of one colour. Trying
//! those distances first, plus one hashed guess, finds nearly everything a general search
//! finds in a fraction of the time; a dynamic Huffman block then codes the result.

/// Deflate's window: the farthest a repeat may point back.
const WINDOW: usize = 32 * 1024;
const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
const HASH_BITS: u32 = 15;

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DISTANCE_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order code-length code lengths are stored in (RFC 1951, 3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// One step of the compressed stream: a byte, or a copy of `length` bytes from `distance`
/// back.
#[derive(Clone, Copy)]
enum Token {
    Literal(u8),
    Copy { length: u16, distance: u16 },
}

/// `data` as a zlib stream. `distances` are the places repeats are expected, nearest first.
pub(super) fn zlib(data: &[u8], distances: &[usize]) -> Vec<u8> {
    let tokens = find_repeats(data, distances);
    let mut out = BitWriter::with_capacity(data.len() / 16 + 64);
    // zlib header: deflate with a 32 KiB window, no preset dictionary, checksum bits.
    out.bytes(&[0x78, 0x01]);
    write_block(&mut out, &tokens);
    let mut bytes = out.finish();
    bytes.extend_from_slice(&adler32(data).to_be_bytes());
    bytes
}

fn common_length(data: &[u8], a: usize, b: usize) -> usize {
    let max = MAX_MATCH.min(data.len() - b);
    let mut n = 0;
    while n + 8 <= max {
        let x = u64::from_le_bytes(data[a + n..a + n + 8].try_into().unwrap_or_default());
        let y = u64::from_le_bytes(data[b + n..b + n + 8].try_into().unwrap_or_default());
        let diff = x ^ y;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < max && data[a + n] == data[b + n] {
        n += 1;
    }
    n
}

fn hash(data: &[u8], i: usize) -> usize {
    let v = u32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many earlier places with the same four bytes are tried, besides the expected
/// distances.
const CHAIN: usize = 4;

/// Repeats at least this long are taken at once, without looking one byte further for a
/// longer one.
const LAZY_BELOW: usize = 32;

/// The longest repeat found for position `i`: (length, distance), length 0 if none.
struct Finder<'a> {
    data: &'a [u8],
    distances: &'a [usize],
    head: Vec<u32>,
    prev: Vec<u32>,
}

impl Finder<'_> {
    fn insert(&mut self, i: usize) {
        if i + 4 <= self.data.len() {
            let h = hash(self.data, i);
            self.prev[i % WINDOW] = self.head[h];
            self.head[h] = i as u32;
        }
    }

    fn best(&self, i: usize) -> (usize, usize) {
        let data = self.data;
        let mut best = (0, 0);
        let last = data.len() - 1 - i;
        for &d in self.distances {
            // Only a candidate agreeing at the current best length can beat it.
            if d <= i && d <= WINDOW && data[i - d + best.0.min(last)] == data[i + best.0.min(last)]
            {
                let n = common_length(data, i - d, i);
                if n > best.0 {
                    best = (n, d);
                    if n == MAX_MATCH {
                        return best;
                    }
                }
            }
        }
        if i + 4 > data.len() {
            return best;
        }
        let mut candidate = self.head[hash(data, i)];
        for _ in 0..CHAIN {
            if candidate == u32::MAX || candidate as usize >= i {
                break;
            }
            let c = candidate as usize;
            let d = i - c;
            if d > WINDOW {
                break;
            }
            if data[c + best.0.min(last)] == data[i + best.0.min(last)] {
                let n = common_length(data, c, i);
                if n > best.0 {
                    best = (n, d);
                    if n == MAX_MATCH {
                        break;
                    }
                }
            }
            let next = self.prev[c % WINDOW];
            if next == u32::MAX || next as usize >= c {
                break;
            }
            candidate = next;
        }
        best
    }
}

fn find_repeats(data: &[u8], distances: &[usize]) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(data.len() / 32);
    let mut finder = Finder {
        data,
        distances,
        head: vec![u32::MAX; 1 << HASH_BITS],
        prev: vec![u32::MAX; WINDOW],
    };
    let mut i = 0;
    let mut pending = finder.best(0);
    while i < data.len() {
        let found = pending;
        finder.insert(i);
        if found.0 >= MIN_MATCH && found.0 < LAZY_BELOW && i + 1 < data.len() {
            // Lazy matching: a longer repeat starting one byte later is worth a literal.
            let next = finder.best(i + 1);
            if next.0 > found.0 {
                tokens.push(Token::Literal(data[i]));
                i += 1;
                pending = next;
                continue;
            }
        }
        if found.0 >= MIN_MATCH {
            tokens.push(Token::Copy {
                length: found.0 as u16,
                distance: found.1 as u16,
            });
            i += found.0;
        } else {
            tokens.push(Token::Literal(data[i]));
            i += 1;
        }
        if i < data.len() {
            pending = finder.best(i);
        }
    }
    tokens
}

fn length_symbol(length: u16) -> usize {
    LENGTH_BASE.partition_point(|&b| b <= length) - 1
}

fn distance_symbol(distance: u16) -> usize {
    DISTANCE_BASE.partition_point(|&b| b <= distance) - 1
}

/// Writes `tokens` as one final deflate block with dynamic Huffman codes.
fn write_block(out: &mut BitWriter, tokens: &[Token]) {
    let mut literal_freq = [0u32; 286];
    let mut distance_freq = [0u32; 30];
    for t in tokens {
        match *t {
            Token::Literal(b) => literal_freq[b as usize] += 1,
            Token::Copy { length, distance } => {
                literal_freq[257 + length_symbol(length)] += 1;
                distance_freq[distance_symbol(distance)] += 1;
            }
        }
    }
    literal_freq[256] = 1;
    let literal_lengths = code_lengths(&literal_freq, 15);
    let distance_lengths = code_lengths(&distance_freq, 15);
    let literal_codes = canonical_codes(&literal_lengths);
    let distance_codes = canonical_codes(&distance_lengths);

    let hlit = 257.max(last_used(&literal_lengths));
    let hdist = 1.max(last_used(&distance_lengths));
    let mut all_lengths = literal_lengths[..hlit].to_vec();
    all_lengths.extend_from_slice(&distance_lengths[..hdist]);
    let runs = run_length(&all_lengths);
    let mut cl_freq = [0u32; 19];
    for &(symbol, _) in &runs {
        cl_freq[symbol as usize] += 1;
    }
    let cl_lengths = code_lengths(&cl_freq, 7);
    let cl_codes = canonical_codes(&cl_lengths);
    let hclen = 4.max(
        CODE_LENGTH_ORDER
            .iter()
            .rposition(|&s| cl_lengths[s] != 0)
            .map_or(0, |p| p + 1),
    );

    out.bits(1, 1); // the final block
    out.bits(2, 2); // dynamic Huffman codes
    out.bits((hlit - 257) as u32, 5);
    out.bits((hdist - 1) as u32, 5);
    out.bits((hclen - 4) as u32, 4);
    for &s in &CODE_LENGTH_ORDER[..hclen] {
        out.bits(cl_lengths[s] as u32, 3);
    }
    for &(symbol, extra) in &runs {
        let s = symbol as usize;
        out.bits(cl_codes[s], cl_lengths[s] as u32);
        match symbol {
            16 => out.bits(extra as u32, 2),
            17 => out.bits(extra as u32, 3),
            18 => out.bits(extra as u32, 7),
            _ => {}
        }
    }
    for t in tokens {
        match *t {
            Token::Literal(b) => {
                let s = b as usize;
                out.bits(literal_codes[s], literal_lengths[s] as u32);
            }
            Token::Copy { length, distance } => {
                let l = length_symbol(length);
                out.bits(literal_codes[257 + l], literal_lengths[257 + l] as u32);
                out.bits((length - LENGTH_BASE[l]) as u32, LENGTH_EXTRA[l] as u32);
                let d = distance_symbol(distance);
                out.bits(distance_codes[d], distance_lengths[d] as u32);
                out.bits(
                    (distance - DISTANCE_BASE[d]) as u32,
                    DISTANCE_EXTRA[d] as u32,
                );
            }
        }
    }
    out.bits(literal_codes[256], literal_lengths[256] as u32);
}

fn last_used(lengths: &[u8]) -> usize {
    lengths.iter().rposition(|&l| l != 0).map_or(0, |p| p + 1)
}

/// Code lengths as the code-length alphabet writes them: (symbol, extra bits value).
fn run_length(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let mut n = 1;
        while i + n < lengths.len() && lengths[i + n] == l {
            n += 1;
        }
        i += n;
        if l == 0 {
            while n >= 11 {
                let k = n.min(138);
                runs.push((18, (k - 11) as u8));
                n -= k;
            }
            if n >= 3 {
                runs.push((17, (n - 3) as u8));
                n = 0;
            }
        } else {
            runs.push((l, 0));
            n -= 1;
            while n >= 3 {
                let k = n.min(6);
                runs.push((16, (k - 3) as u8));
                n -= k;
            }
        }
        for _ in 0..n {
            runs.push((l, 0));
        }
    }
    runs
}

/// Huffman code lengths for `freq`, none longer than `limit`. Unused symbols get 0; when
/// only one symbol is used it gets a 1-bit code, as deflate allows.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut freq: Vec<u32> = freq.to_vec();
    loop {
        let lengths = huffman_lengths(&freq);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        // Too deep: flatten the distribution and try again.
        for f in freq.iter_mut().filter(|f| **f > 0) {
            *f = (*f >> 1).max(1);
        }
    }
}

fn huffman_lengths(freq: &[u32]) -> Vec<u8> {
    let mut lengths = vec![0u8; freq.len()];
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    match used.len() {
        0 => return lengths,
        1 => {
            lengths[used[0]] = 1;
            return lengths;
        }
        _ => {}
    }
    // Nodes: leaves first, then internal nodes; `parent` links let depths be read back.
    let mut weight: Vec<u64> = used.iter().map(|&s| freq[s] as u64).collect();
    let mut parent: Vec<usize> = vec![usize::MAX; used.len()];
    let mut queue: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = weight
        .iter()
        .enumerate()
        .map(|(i, &w)| std::cmp::Reverse((w, i)))
        .collect();
    while queue.len() > 1 {
        let (Some(std::cmp::Reverse((wa, a))), Some(std::cmp::Reverse((wb, b)))) =
            (queue.pop(), queue.pop())
        else {
            break;
        };
        let node = weight.len();
        weight.push(wa + wb);
        parent.push(usize::MAX);
        parent[a] = node;
        parent[b] = node;
        queue.push(std::cmp::Reverse((wa + wb, node)));
    }
    for (leaf, &s) in used.iter().enumerate() {
        let mut depth = 0u8;
        let mut n = leaf;
        while parent[n] != usize::MAX {
            n = parent[n];
            depth = depth.saturating_add(1);
        }
        lengths[s] = depth;
    }
    lengths
}

/// Canonical codes for `lengths`, bit-reversed so they can be written least significant bit
/// first.
fn canonical_codes(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (32 - l as u32)
        })
        .collect()
}

/// Packs bits least significant first, as deflate wants them.
struct BitWriter {
    bytes: Vec<u8>,
    buffer: u64,
    filled: u32,
}

impl BitWriter {
    fn with_capacity(n: usize) -> BitWriter {
        BitWriter {
            bytes: Vec::with_capacity(n),
            buffer: 0,
            filled: 0,
        }
    }

    fn bits(&mut self, value: u32, count: u32) {
        self.buffer |= (value as u64) << self.filled;
        self.filled += count;
        while self.filled >= 8 {
            self.bytes.push(self.buffer as u8);
            self.buffer >>= 8;
            self.filled -= 8;
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            self.bytes.push(self.buffer as u8);
        }
        self.bytes
    }
}

fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    const BLOCK: usize = 32;
    const WEIGHTS: [u32; BLOCK] = {
        let mut w = [0; BLOCK];
        let mut k = 0;
        while k < BLOCK {
            w[k] = (BLOCK - k) as u32;
            k += 1;
        }
        w
    };
    let (mut a, mut b) = (1u32, 0u32);
    // 5536 bytes (a multiple of the block) is below 5552, the most that can be summed
    // before `b` could overflow.
    for chunk in data.chunks(5536) {
        let mut blocks = chunk.chunks_exact(BLOCK);
        for block in blocks.by_ref() {
            // Over a block, `b` gains BLOCK × a plus each byte weighted by how many sums
            // still follow it; written this way the sums vectorise.
            let mut sum = 0u32;
            let mut weighted = 0u32;
            for (x, w) in block.iter().zip(WEIGHTS) {
                sum += *x as u32;
                weighted += w * *x as u32;
            }
            b += BLOCK as u32 * a + weighted;
            a += sum;
        }
        for &x in blocks.remainder() {
            a += x as u32;
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rows` of greyscale pixels compressed with [`zlib`], then read back by the png
    /// crate's own inflater: an independent check that the stream is valid deflate.
    fn round_trip(width: u32, rows: &[Vec<u8>], distances: &[usize]) -> Vec<u8> {
        let mut raw = Vec::new();
        for row in rows {
            raw.push(0);
            raw.extend_from_slice(row);
        }
        let mut file = Vec::new();
        let mut encoder = png::Encoder::new(&mut file, width, rows.len() as u32);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer
            .write_chunk(png::chunk::IDAT, &zlib(&raw, distances))
            .unwrap();
        writer.finish().unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(file));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut pixels).unwrap();
        pixels
    }

    #[test]
    fn streams_inflate_to_the_original_bytes() {
        let width = 300u32;
        let mut seed = 12345u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for y in 0..200 {
            let row: Vec<u8> = match y % 5 {
                0 => (0..width).map(|_| noise()).collect(),
                1 => rows[rows.len() - 1].clone(),
                2 => (0..width)
                    .map(|x| ((x / 36 + y / 36) % 2) as u8 * 200)
                    .collect(),
                3 => (0..width)
                    .map(|x| if x % 97 == 0 { noise() } else { 7 })
                    .collect(),
                _ => (0..width).map(|x| (x % 3) as u8).collect(),
            };
            rows.push(row);
        }
        let flat: Vec<u8> = rows.concat();
        assert_eq!(round_trip(width, &rows, &[301, 72, 1]), flat);
        assert_eq!(round_trip(width, &rows, &[]), flat);
        let one = vec![vec![9u8; 1]];
        assert_eq!(round_trip(1, &one, &[1]), vec![9]);
        let noise_only: Vec<Vec<u8>> = (0..3)
            .map(|_| (0..width).map(|_| noise()).collect())
            .collect();
        assert_eq!(round_trip(width, &noise_only, &[1]), noise_only.concat());
    }

    #[test]
    fn adler32_matches_the_byte_by_byte_definition() {
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for len in [0, 1, 31, 32, 33, 5535, 5536, 5537, 20_000] {
            let (mut a, mut b) = (1u32, 0u32);
            for &x in &data[..len] {
                a = (a + x as u32) % 65521;
                b = (b + a) % 65521;
            }
            assert_eq!(adler32(&data[..len]), (b << 16) | a, "{len} bytes");
        }
    }

    #[test]
    fn code_lengths_respect_their_limit_and_form_a_prefix_code() {
        let freq: Vec<u32> = (0..40).map(|i| 1u32 << (i % 31)).collect();
        let lengths = code_lengths(&freq, 7);
        assert!(lengths.iter().all(|&l| (1..=7).contains(&l)));
        let kraft: f64 = lengths.iter().map(|&l| 0.5f64.powi(l as i32)).sum();
        assert!(kraft <= 1.0 + 1e-9, "{kraft}");
    }
}
