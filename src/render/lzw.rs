//! GIF's LZW compression, made quick over long runs of one palette index.
//!
//! A replay frame after the first is mostly the transparent index (pixels unchanged since the
//! last frame) with a few changed patches. A plain LZW encoder looks up its dictionary once per
//! pixel; here the codes for runs of the "run index" are remembered, so a run is crossed in as
//! many steps as codes it needs, and the output is exactly what a plain encoder writes.

/// GIF's minimum code size for a 256-colour palette.
const MIN_CODE_SIZE: u8 = 8;
const CLEAR: u16 = 1 << MIN_CODE_SIZE;
const END: u16 = CLEAR + 1;
const MAX_CODE: u16 = 4095;
const TABLE_BITS: u32 = 13;
const EMPTY: u32 = u32::MAX;

/// The dictionary: (prefix code, next index) → code, by open addressing.
struct Dictionary {
    keys: Vec<u32>,
    codes: Vec<u16>,
}

impl Dictionary {
    fn new() -> Dictionary {
        Dictionary {
            keys: vec![EMPTY; 1 << TABLE_BITS],
            codes: vec![0; 1 << TABLE_BITS],
        }
    }

    fn clear(&mut self) {
        self.keys.fill(EMPTY);
    }

    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - TABLE_BITS)) as usize
    }

    fn get(&self, prefix: u16, next: u8) -> Option<u16> {
        let key = (prefix as u32) << 8 | next as u32;
        let mask = (1 << TABLE_BITS) - 1;
        let mut slot = Dictionary::slot(key);
        loop {
            match self.keys[slot] {
                EMPTY => return None,
                k if k == key => return Some(self.codes[slot]),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn insert(&mut self, prefix: u16, next: u8, code: u16) {
        let key = (prefix as u32) << 8 | next as u32;
        let mask = (1 << TABLE_BITS) - 1;
        let mut slot = Dictionary::slot(key);
        while self.keys[slot] != EMPTY {
            slot = (slot + 1) & mask;
        }
        self.keys[slot] = key;
        self.codes[slot] = code;
    }
}

/// Packs codes least significant bit first, as GIF wants them.
struct CodeWriter {
    bytes: Vec<u8>,
    buffer: u64,
    filled: u32,
}

impl CodeWriter {
    fn write(&mut self, code: u16, width: u32) {
        self.buffer |= (code as u64) << self.filled;
        self.filled += width;
        while self.filled >= 8 {
            self.bytes.push(self.buffer as u8);
            self.buffer >>= 8;
            self.filled -= 8;
        }
    }
}

/// `data` compressed as GIF image data: the minimum code size byte, then the codes (not yet
/// cut into sub-blocks). Runs of `run` are compressed quickest.
pub(super) fn compress(data: &[u8], run: u8) -> Vec<u8> {
    let mut out = CodeWriter {
        bytes: Vec::with_capacity(data.len() / 8 + 16),
        buffer: 0,
        filled: 0,
    };
    out.bytes.push(MIN_CODE_SIZE);
    let base_width = MIN_CODE_SIZE as u32 + 1;
    let mut width = base_width;
    out.write(CLEAR, width);
    let Some((&first, _)) = data.split_first() else {
        out.write(END, width);
        return finish(out);
    };
    let mut dictionary = Dictionary::new();
    let mut last_code = END;
    // run_codes[k] is the code for k + 1 copies of `run`; all shorter runs are always known.
    let mut run_codes: Vec<u16> = vec![run as u16];
    let mut current = first as u16;
    // How many copies of `run` the current string is, or 0 if it is something else.
    let mut current_run = usize::from(first == run);
    let mut run_end = 0;
    let mut i = 1;
    while i < data.len() {
        let next = data[i];
        if current_run > 0 && next == run {
            if run_end <= i {
                run_end = i + data[i..]
                    .iter()
                    .position(|&b| b != run)
                    .unwrap_or(data.len() - i);
            }
            let known = run_codes.len().min(current_run + (run_end - i));
            if known > current_run {
                i += known - current_run;
                current_run = known;
                current = run_codes[known - 1];
                continue;
            }
        }
        if let Some(code) = dictionary.get(current, next) {
            current = code;
            current_run = if current_run > 0 && next == run {
                current_run + 1
            } else {
                0
            };
            i += 1;
            continue;
        }
        out.write(current, width);
        last_code += 1;
        dictionary.insert(current, next, last_code);
        if current_run == run_codes.len() && next == run {
            run_codes.push(last_code);
        }
        if last_code as u32 >= 1 << width {
            width += 1;
        }
        if last_code == MAX_CODE {
            out.write(CLEAR, width);
            dictionary.clear();
            run_codes.truncate(1);
            width = base_width;
            last_code = END;
        }
        current = next as u16;
        current_run = usize::from(next == run);
        i += 1;
    }
    out.write(current, width);
    out.write(END, width);
    finish(out)
}

fn finish(mut out: CodeWriter) -> Vec<u8> {
    if out.filled > 0 {
        out.bytes.push(out.buffer as u8);
    }
    out.bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes with the gif crate's own LZW decoder, by wrapping `data` as a one-frame GIF.
    fn round_trip(pixels: &[u8], width: u16, run: u8) -> Vec<u8> {
        let height = (pixels.len() / width as usize) as u16;
        let mut file = Vec::new();
        {
            let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
            let mut encoder = gif::Encoder::new(&mut file, width, height, &palette).unwrap();
            let frame = gif::Frame {
                width,
                height,
                buffer: std::borrow::Cow::Owned(compress(pixels, run)),
                ..gif::Frame::default()
            };
            encoder.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(std::io::Cursor::new(file)).unwrap();
        let frame = decoder.read_next_frame().unwrap().unwrap();
        frame.buffer.to_vec()
    }

    #[test]
    fn frames_decode_to_the_original_indices() {
        let mut seed = 99u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        // Long runs of the run index broken by patches, as in a replay frame, long enough to
        // fill and clear the dictionary several times.
        let mut pixels = Vec::new();
        for row in 0..400u32 {
            for x in 0..300u32 {
                let patch = (x / 40 + row / 30) % 3 == 0 && x % 40 < 12;
                pixels.push(if patch { noise() % 6 } else { 255 });
            }
        }
        assert_eq!(round_trip(&pixels, 300, 255), pixels);
        assert_eq!(round_trip(&pixels, 300, 0), pixels);
        let noisy: Vec<u8> = (0..90_000).map(|_| noise()).collect();
        assert_eq!(round_trip(&noisy, 300, 255), noisy);
        let flat = vec![255u8; 200_000];
        assert_eq!(round_trip(&flat, 400, 255), flat);
        assert_eq!(round_trip(&[255], 1, 255), vec![255]);
        assert_eq!(round_trip(&[7], 1, 255), vec![7]);
    }
}
