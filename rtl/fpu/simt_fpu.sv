// One lane's FP32 unit (docs/blocks/fpu.md): IEEE-754 binary32 with subnormals flushed to
// zero (inputs, and results after rounding) and the canonical quiet NaN 0x7FC00000.
//   pipeline  fadd fsub fmul ffma (simt_fpu_fma), s32/u32 -> f32 (through the same adder,
//             normaliser and rounder), fmin fmax fsetp (simt_fpu_cmp), fabs fneg,
//             f32 -> s32/u32 (simt_fpu_f2i): valid_o, result_o, pred_o Latency (3) cycles
//             after valid_i, one operation per cycle
//   iterative fdiv fsqrt (simt_fpu_divsqrt): ds_valid_o, ds_result_o DivSqrtLatency (27)
//             cycles after valid_i; one at a time (busy_o: no division or square root may
//             start), pipeline operations keep flowing meanwhile
// Arithmetic rounds to nearest even; the conversions take rm_i. An undefined op_i gives
// valid_o with result 0 and pred 0 (and fails an assertion).
module simt_fpu (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [3:0]  op_i,       // simt_fpu_pkg::op_e
  input  logic [1:0]  rm_i,       // simt_fpu_pkg::rm_e: conversions only
  input  logic [3:0]  cmp_i,      // simt_fpu_pkg::cmp_e: FCmp only
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,        // ffma's addend
  output logic        valid_o,
  output logic [31:0] result_o,
  output logic        pred_o,     // FCmp's predicate (0 for the other operations)
  output logic        busy_o,     // the iterative unit is busy: no FDiv/FSqrt this cycle
  output logic        ds_valid_o,
  output logic [31:0] ds_result_o
);

  // The pipeline and, beside it, the iterative unit (fdiv, fsqrt).
  logic is_ds;
  assign is_ds = op_i == simt_fpu_pkg::FDiv || op_i == simt_fpu_pkg::FSqrt;

  simt_fpu_pipe u_pipe (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (valid_i && !is_ds),
    .op_i     (op_i),
    .rm_i     (rm_i),
    .cmp_i    (cmp_i),
    .a_i      (a_i),
    .b_i      (b_i),
    .c_i      (c_i),
    .valid_o  (valid_o),
    .result_o (result_o),
    .pred_o   (pred_o)
  );

  // ---------------------------------------------------------------------------------------
  // Division and square root
  // ---------------------------------------------------------------------------------------
  simt_fpu_divsqrt u_divsqrt (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (valid_i && is_ds),
    .sqrt_i   (op_i == simt_fpu_pkg::FSqrt),
    .a_i      (a_i),
    .b_i      (b_i),
    .busy_o   (busy_o),
    .valid_o  (ds_valid_o),
    .result_o (ds_result_o)
  );

`ifdef VERILATOR
  // No division or square root while busy; results are never unknown.
  always @(posedge clk_i) begin
    if (rst_ni && valid_i && is_ds) assert (!busy_o);
    if (rst_ni && ds_valid_o) assert (!$isunknown(ds_result_o));
  end
`endif

endmodule
