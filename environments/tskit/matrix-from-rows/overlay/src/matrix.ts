// Small dense matrices of numbers, immutable: every operation returns a new Matrix.

/** Rows of numbers, as `Matrix.fromRows` takes them and `toArray` returns them. */
export type Rows = ReadonlyArray<ReadonlyArray<number>>;

/** A rectangular matrix of finite numbers with at least one row and one column. */
export class Matrix {
  readonly #cells: number[][];

  private constructor(cells: number[][]) {
    this.#cells = cells;
  }

  /**
   * Builds a matrix from its rows (copied). Throws TypeError when `rows` or a row is not an
   * array or an entry is not a finite number, and RangeError when there are no rows, the first
   * row is empty, or a row's length differs from the first's.
   *
   * @param rows the rows, top to bottom
   * @returns the matrix
   * @example Matrix.fromRows([[1, 2], [3, 4]]).cols // => 2
   */
  static fromRows(rows: Rows): Matrix {
    throw new Error('not implemented');
  }

  /**
   * The `size` x `size` identity matrix (1 on the diagonal, 0 elsewhere). Throws RangeError when
   * `size` is not an integer from 1 to 1000.
   *
   * @param size the number of rows and columns
   * @returns the identity matrix
   * @example Matrix.identity(2).toArray() // => [[1, 0], [0, 1]]
   */
  static identity(size: number): Matrix {
    if (!Number.isInteger(size) || size < 1 || size > 1000) throw new RangeError('size must be an integer from 1 to 1000');
    const cells = Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, col) => (row === col ? 1 : 0)));
    return new Matrix(cells);
  }

  /** The number of rows. */
  get rows(): number {
    return this.#cells.length;
  }

  /** The number of columns. */
  get cols(): number {
    return this.#cells[0].length;
  }

  /** The rows as fresh arrays. */
  toArray(): number[][] {
    return this.#cells.map((row) => [...row]);
  }

  /**
   * Multiplies by a number (every entry scaled) or by a matrix (the matrix product this x other,
   * whose size is this.rows x other.cols). Negative zeros in the result are written as 0. Throws
   * RangeError when this.cols differs from other.rows, and TypeError when `other` is neither a
   * finite number nor a Matrix.
   *
   * @param other a scalar or a matrix
   * @returns the product
   * @example Matrix.fromRows([[1, 2], [3, 4]]).multiply(Matrix.fromRows([[0, 1], [1, 0]])).toArray() // => [[2, 1], [4, 3]]
   * @example Matrix.fromRows([[1, -2]]).multiply(-1).toArray() // => [[-1, 2]]
   */
  multiply(other: Matrix | number): Matrix {
    if (typeof other === 'number') {
      if (!Number.isFinite(other)) throw new TypeError('scalar must be a finite number');
      return new Matrix(this.#cells.map((row) => row.map((value) => value * other + 0)));
    }
    if (!(other instanceof Matrix)) throw new TypeError('can only multiply by a number or a Matrix');
    if (this.cols !== other.rows) throw new RangeError(`cannot multiply ${this.rows}x${this.cols} by ${other.rows}x${other.cols}`);
    const right = other.#cells;
    const cells = this.#cells.map((row) =>
      right[0].map((_, col) => row.reduce((sum, value, k) => sum + value * right[k][col], 0) + 0),
    );
    return new Matrix(cells);
  }

  /**
   * The transpose: row i of the result is column i of this matrix.
   *
   * @returns a cols x rows matrix
   * @example Matrix.fromRows([[1, 2, 3]]).transpose().toArray() // => [[1], [2], [3]]
   */
  transpose(): Matrix {
    const cells: number[][] = [];
    for (let col = 0; col < this.cols; col++) cells.push(this.#cells.map((row) => row[col]));
    return new Matrix(cells);
  }

  /**
   * The determinant, computed by fraction-free (Bareiss) elimination, so that a matrix of
   * integers gives an exact integer while intermediate values stay integers; rows are swapped
   * (flipping the sign) when a pivot is 0, and a column without a non-zero pivot gives 0. Throws
   * RangeError for a matrix that is not square.
   *
   * @returns the determinant
   * @example Matrix.fromRows([[1, 2], [3, 4]]).determinant // => -2
   * @example Matrix.fromRows([[0, 1, 2], [1, 0, 3], [4, -3, 8]]).determinant // => -2
   */
  get determinant(): number {
    const n = this.rows;
    if (n !== this.cols) throw new RangeError(`a ${this.rows}x${this.cols} matrix has no determinant`);
    const a = this.toArray();
    let sign = 1;
    let previous = 1;
    for (let k = 0; k < n - 1; k++) {
      if (a[k][k] === 0) {
        const swap = a.findIndex((row, index) => index > k && row[k] !== 0);
        if (swap === -1) return 0;
        [a[k], a[swap]] = [a[swap], a[k]];
        sign = -sign;
      }
      for (let i = k + 1; i < n; i++) {
        for (let j = k + 1; j < n; j++) a[i][j] = (a[i][j] * a[k][k] - a[i][k] * a[k][j]) / previous;
      }
      previous = a[k][k];
    }
    return sign * a[n - 1][n - 1] + 0;
  }
}
