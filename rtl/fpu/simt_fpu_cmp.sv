// The FPU's comparisons: fsetp's predicate for the 14 compare codes, and minNum/maxNum.
// Operands are flushed (a subnormal compares as the zero of its sign), +0 == -0 for the
// predicates; for min and max -0 < +0, a NaN operand yields the other operand and two NaNs
// the canonical NaN (signalling NaNs are not distinguished). Combinational.
module simt_fpu_cmp (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [3:0]  cmp_i,   // simt_fpu_pkg::cmp_e
  output logic        pred_o,
  output logic [31:0] min_o,
  output logic [31:0] max_o
);

  logic [31:0] x, y;
  logic        x_nan, y_nan, unord, both_zero, eq, lt, gt, lt_total;

  assign x         = simt_fpu_pkg::flush_in(a_i);
  assign y         = simt_fpu_pkg::flush_in(b_i);
  assign x_nan     = simt_fpu_pkg::is_nan(x);
  assign y_nan     = simt_fpu_pkg::is_nan(y);
  assign unord     = x_nan || y_nan;
  assign both_zero = x[30:0] == '0 && y[30:0] == '0;
  assign eq        = !unord && (x == y || both_zero);
  // Sign-magnitude order of two ordered, not both zero, operands.
  assign lt        = !unord && !both_zero &&
                     ((x[31] && !y[31]) ||
                      (!x[31] && !y[31] && x[30:0] < y[30:0]) ||
                      (x[31] && y[31] && y[30:0] < x[30:0]));
  assign gt        = !unord && !eq && !lt;
  assign lt_total  = lt || (both_zero && x[31] && !y[31]);

  always_comb begin
    pred_o = 1'b0;
    unique case (cmp_i)
      simt_fpu_pkg::CmpEq:  pred_o = eq;
      simt_fpu_pkg::CmpNe:  pred_o = !unord && !eq;
      simt_fpu_pkg::CmpLt:  pred_o = lt;
      simt_fpu_pkg::CmpLe:  pred_o = lt || eq;
      simt_fpu_pkg::CmpGt:  pred_o = gt;
      simt_fpu_pkg::CmpGe:  pred_o = gt || eq;
      simt_fpu_pkg::CmpEqu: pred_o = unord || eq;
      simt_fpu_pkg::CmpNeu: pred_o = !eq;
      simt_fpu_pkg::CmpLtu: pred_o = unord || lt;
      simt_fpu_pkg::CmpLeu: pred_o = unord || lt || eq;
      simt_fpu_pkg::CmpGtu: pred_o = unord || gt;
      simt_fpu_pkg::CmpGeu: pred_o = unord || gt || eq;
      simt_fpu_pkg::CmpNum: pred_o = !unord;
      simt_fpu_pkg::CmpNan: pred_o = unord;
      default:              pred_o = 1'b0;
    endcase
  end

  always_comb begin
    min_o = lt_total ? x : y;
    max_o = lt_total ? y : x;
    if (x_nan && y_nan) begin
      min_o = simt_fpu_pkg::CanonicalNan;
      max_o = simt_fpu_pkg::CanonicalNan;
    end else if (x_nan) begin
      min_o = y;
      max_o = y;
    end else if (y_nan) begin
      min_o = x;
      max_o = x;
    end
  end

`ifdef VERILATOR
  // Exactly one of <, ==, > holds for ordered operands.
  always_comb begin
    if (!unord) assert ((lt ? 1 : 0) + (eq ? 1 : 0) + (gt ? 1 : 0) == 1);
  end
`endif

endmodule
