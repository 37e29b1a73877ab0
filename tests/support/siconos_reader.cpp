// Siconos' readers are fscanf-based: a stream of whitespace-separated tokens, and anything
// after the last required token (free-text remarks in several files) is ignored. The
// CSparse storage is the one exception: it embeds two free-text lines and a
// "col j : locations a to b" / "i : value" listing.
#include "support/siconos_reader.hpp"

#include <fstream>
#include <stdexcept>
#include <vector>

namespace pivot::external {

namespace {

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path) {
    if (!in_) fail("cannot open");
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(path_ + ": " + message);
  }

  // An integer in [min_value, 10^8]: far beyond any file here, so a misread is caught.
  int integer(const char* what, int min_value = 0) {
    long long value = 0;
    if (!(in_ >> value)) fail(std::string("expected an integer: ") + what);
    if (value < min_value || value > 100000000) fail(std::string("implausible ") + what);
    return static_cast<int>(value);
  }

  double real(const char* what) {
    double value = 0.0;
    if (!(in_ >> value)) fail(std::string("expected a real: ") + what);
    return value;
  }

  void word(const std::string& expected) {
    std::string token;
    if (!(in_ >> token) || token != expected) {
      fail("expected '" + expected + "', found '" + token + "'");
    }
  }

  void skip_line() {
    std::string ignored;
    std::getline(in_, ignored);
  }

 private:
  std::string path_;
  std::ifstream in_;
};

// storageType 0: size0 size1 repeated, then the values column-major.
void read_dense(Reader& in, MatX* M) {
  if (in.integer("dense rows") != M->rows() || in.integer("dense columns") != M->cols()) {
    in.fail("dense sizes disagree with the NumericsMatrix header");
  }
  for (Eigen::Index k = 0; k < M->size(); ++k) (*M)(k % M->rows(), k / M->rows()) = in.real("M");
}

// storageType 1: block-CSR over cumulative row and column offsets; each stored block is
// preceded by its running number and dense column-major inside.
void read_sparse_block(Reader& in, MatX* M) {
  const int blocks = in.integer("nbblocks");
  if (blocks == 0) return;
  const int block_rows = in.integer("blocknumber0");
  const int block_cols = in.integer("blocknumber1");
  std::vector<int> row_end(block_rows), col_end(block_cols);
  for (int& r : row_end) r = in.integer("blocksize0");
  for (int& c : col_end) c = in.integer("blocksize1");
  if (row_end.back() != M->rows() || col_end.back() != M->cols()) {
    in.fail("block offsets do not end at the matrix size");
  }
  if (in.integer("filled1") != block_rows + 1 || in.integer("filled2") != blocks) {
    in.fail("filled1/filled2 disagree with the block counts");
  }
  std::vector<int> row_start(block_rows + 1), block_col(blocks);
  for (int& r : row_start) r = in.integer("index1");
  for (int& c : block_col) {
    c = in.integer("index2");
    if (c >= block_cols) in.fail("block column index out of range");
  }
  if (row_start.front() != 0 || row_start.back() != blocks) in.fail("index1 is not a row pointer");
  for (int i = 0; i < block_rows; ++i) {
    const int r0 = i == 0 ? 0 : row_end[i - 1];
    for (int b = row_start[i]; b < row_start[i + 1]; ++b) {
      if (in.integer("block number") != b) in.fail("block numbers out of order");
      const int j = block_col[b];
      const int c0 = j == 0 ? 0 : col_end[j - 1];
      const int rows = row_end[i] - r0;
      const int cols = col_end[j] - c0;
      for (int k = 0; k < rows * cols; ++k) (*M)(r0 + k % rows, c0 + k / rows) = in.real("block");
    }
  }
}

// storageType 2, CSC origin only (the only one in the shared data): the rest of the
// origin line, a "CSparse Version" banner and an "m-by-n, nzmax: ..." line, then per
// column "col j : locations a to b" and b - a + 1 lines "i : value".
void read_csparse(Reader& in, MatX* M) {
  constexpr int kCsc = 2;
  if (in.integer("CSparse origin") != kCsc) in.fail("only CSparse CSC storage is supported");
  in.skip_line();
  in.skip_line();
  in.skip_line();
  for (Eigen::Index j = 0; j < M->cols(); ++j) {
    in.word("col");
    if (in.integer("column") != j) in.fail("CSparse columns out of order");
    in.word(":");
    in.word("locations");
    const int first = in.integer("first location");
    in.word("to");
    const int last = in.integer("last location", -1);  // first - 1 for an empty column
    for (int k = first; k <= last; ++k) {
      const int i = in.integer("row");
      if (i >= M->rows()) in.fail("CSparse row index out of range");
      in.word(":");
      (*M)(i, j) = in.real("value");
    }
  }
}

MatX read_numerics_matrix(Reader& in) {
  const int storage = in.integer("storageType");
  const int rows = in.integer("size0");
  const int cols = in.integer("size1");
  MatX M = MatX::Zero(rows, cols);
  switch (storage) {
    case 0:
      read_dense(in, &M);
      break;
    case 1:
      read_sparse_block(in, &M);
      break;
    case 2:
      read_csparse(in, &M);
      break;
    default:
      in.fail("unknown NumericsMatrix storageType " + std::to_string(storage));
  }
  return M;
}

}  // namespace

SiconosLcp read_siconos_lcp(const std::string& path) {
  Reader in(path);
  SiconosLcp lcp;
  const int n = in.integer("n");
  lcp.M = read_numerics_matrix(in);
  if (lcp.M.rows() != n || lcp.M.cols() != n) in.fail("M is not n x n");
  lcp.q.resize(n);
  for (int i = 0; i < n; ++i) lcp.q(i) = in.real("q");
  return lcp;
}

SiconosFrictionContact read_siconos_friction_contact(const std::string& path) {
  Reader in(path);
  SiconosFrictionContact fc;
  fc.dimension = in.integer("dimension");
  if (fc.dimension != 2 && fc.dimension != 3) in.fail("dimension must be 2 or 3");
  const int nc = in.integer("number of contacts");
  const int size = fc.dimension * nc;
  fc.W = read_numerics_matrix(in);
  if (fc.W.rows() != size || fc.W.cols() != size) in.fail("W is not (d nc) x (d nc)");
  fc.q.resize(size);
  for (int i = 0; i < size; ++i) fc.q(i) = in.real("q");
  fc.mu.resize(nc);
  for (int c = 0; c < nc; ++c) fc.mu(c) = in.real("mu");
  return fc;
}

}  // namespace pivot::external
