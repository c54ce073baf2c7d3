// The strength benchmark's driver for koedem/Thud (built privately by scripts/koedem/build, never
// kept here): reads `go <ms> <FEN>` lines and answers a move in thudbot's notation. The search is
// koedem/Thud's own (pv_search, iterative deepening from depth 1, a fresh table each move as in its
// game loops) in a forked child, so the deadline is hard: the last finished iteration's move is
// played when time is up.
// Every standard and boost header its files use comes first, so the `private` trick below reaches
// only its classes (the board's add and remove functions set a position).
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include <array>
#include <algorithm>
#include <atomic>
#include <bit>
#include <random>
#include <fstream>
#include <boost/multiprecision/cpp_int.hpp>
#include <unistd.h>
#include <sys/wait.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#define private public
#include "Board.h"
#include "MoveGenerator.h"
#include "Search.h"
#include "TranspositionTable.h"
#include "Timer.h"
#undef private

static std::string sq_name(int s) {
    int row = s / 16, col = s % 16;
    return std::string(1, char('A' + col)) + std::to_string(row + 1);
}

static std::string move_text(const Move& m) {
    std::string t = (m.to_move == Dwarf ? "d" : "T") + sq_name(m.from) + "-" + sq_name(m.to);
    if (m.captures != NO_CAPTURES) {
        if (m.to_move == Dwarf) {
            t += "x" + sq_name(m.to);
        } else {
            std::vector<int> caps;
            for (int dir = 0; dir < 8; dir++)
                if (m.captures & (1 << dir)) caps.push_back(m.to + directions[dir]);
            std::sort(caps.begin(), caps.end(), [](int a, int b) {
                if (a % 16 != b % 16) return a % 16 < b % 16;
                return a / 16 < b / 16;
            });
            for (int c : caps) t += "x" + sq_name(c);
        }
    }
    return t;
}

// Sets a board to a thudbot position: rows 15..1, playable squares left to right.
static bool set_position(Board& b, const std::string& fen) {
    std::istringstream in(fen);
    std::string rows, side;
    in >> rows >> side;
    for (int s = 0; s < 256; s++) {
        if (b.get_square(s) == Piece::DWARF) b.remove_dwarf(s);
        else if (b.get_square(s) == Piece::TROLL) b.remove_troll(s);
    }
    std::vector<std::string> parts;
    std::string cur;
    for (char c : rows) { if (c == '/') { parts.push_back(cur); cur.clear(); } else cur += c; }
    parts.push_back(cur);
    if (parts.size() != 15) return false;
    for (int i = 0; i < 15; i++) {
        int row = 14 - i;
        std::vector<int> squares;
        for (int col = 0; col < 15; col++) {
            int s = row * 16 + col;
            if (b.get_square(s) != Piece::OUTSIDE) squares.push_back(s);
        }
        size_t k = 0;
        const std::string& p = parts[i];
        for (size_t j = 0; j < p.size(); j++) {
            char c = p[j];
            if (isdigit(c)) {
                int n = 0;
                while (j < p.size() && isdigit(p[j])) { n = n * 10 + (p[j] - '0'); j++; }
                j--;
                k += n;
            } else {
                if (k >= squares.size()) return false;
                int s = squares[k++];
                if (c == 'd') b.add_dwarf(s);
                else if (c == 'T') b.add_troll(s);
                else if (c == 'R') { if (b.get_square(s) != Piece::STONE) return false; }
                else return false;
            }
        }
        if (k != squares.size()) return false;
    }
    Colour want = side == "d" ? Dwarf : Troll;
    if (b.get_to_move() != want) b.change_to_move();
    return true;
}

static bool legal(Board& b, const Move& m) {
    MoveGenerator gen(1);
    std::vector<Move> moves;
    gen.generate_moves(moves, b);
    return std::find(moves.begin(), moves.end(), m) != moves.end();
}

static void child_search(Board board, int wfd) {
    TranspositionTable tt(num_bits);
    Search search(board, tt, board.get_to_move() == Dwarf ? default_dwarf_eval : default_troll_eval);
    Move last = NO_MOVE;
    for (int depth = 1; depth < 50; depth++) {
        search.pv_search(depth, MIN_EVAL, MAX_EVAL);
        Move m = tt.at(board.get_index(), depth).move;
        if (m == NO_MOVE || !legal(board, m)) {
            std::cerr << "koedem: no root move in the table at depth " << depth << "\n";
            m = last;
        }
        if (!(m == NO_MOVE)) {
            last = m;
            std::string line = std::to_string(depth) + " " + move_text(m) + "\n";
            if (write(wfd, line.data(), line.size()) < 0) _exit(1);
        }
    }
    _exit(0);
}

static int64_t now_ms() {
    timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main() {
    setup_valid_squares();
    setup_center_squares();
    signal(SIGPIPE, SIG_IGN);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string go; long ms; in >> go >> ms;
        std::string fen; std::getline(in, fen);
        while (!fen.empty() && fen[0] == ' ') fen.erase(0, 1);
        if (go == "quit") break;
        Board board(Position::Full);
        if (go != "go" || !set_position(board, fen)) { std::cout << "error bad line" << std::endl; continue; }
        int64_t start = now_ms();
        int fds[2];
        if (pipe(fds) != 0) return 1;
        pid_t pid = fork();
        if (pid == 0) { close(fds[0]); child_search(board, fds[1]); }
        close(fds[1]);
        std::string buf, best; int depth = 0;
        int64_t deadline = start + ms - 15;  // room to stop the child and answer
        for (;;) {
            int64_t left = deadline - now_ms();
            if (left <= 0 && !best.empty()) break;
            pollfd p{fds[0], POLLIN, 0};
            int r = poll(&p, 1, left > 0 ? (int)left : 50);
            if (r > 0) {
                char tmp[512];
                ssize_t n = read(fds[0], tmp, sizeof tmp);
                if (n <= 0) break;  // the child finished every depth
                buf.append(tmp, n);
                size_t pos;
                while ((pos = buf.find('\n')) != std::string::npos) {
                    std::istringstream l(buf.substr(0, pos));
                    l >> depth >> best;
                    buf.erase(0, pos + 1);
                }
            }
        }
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        close(fds[0]);
        std::cerr << "koedem: depth " << depth << " in " << (now_ms() - start) << " ms\n";
        std::cout << best << std::endl;
    }
    return 0;
}
