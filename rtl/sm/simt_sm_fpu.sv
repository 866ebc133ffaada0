// The FP unit: one simt_fpu per lane (docs/blocks/fpu.md) running the FP32 instruction in
// EXEC. start_i hands in the instruction with its executing lanes and operands (a: ra, b: rb
// or the immediate, c: rc for ffma), which stay valid until done_o; every lane computes,
// only executing lanes are written. The pipelined operations finish simt_fpu_pkg::Latency
// cycles after the start, fdiv and fsqrt DivSqrtLatency; done_o is the cycle the results
// are written (a register, or fsetp's predicate). The core runs one instruction at a time,
// so the iterative divider is never busy at a start (asserted).
module simt_sm_fpu #(
  parameter int  NumWarps = 8,
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int RfAW     = WarpW + 5
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t     inst_i,   // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]            exec_i,
  input  logic [WarpW-1:0]       warp_i,
  input  logic [32*32-1:0]       opa_i,
  input  logic [32*32-1:0]       opb_i,
  input  logic [32*32-1:0]       opc_i,
  input  logic [32*7-1:0]        pred_i,   // the warp's predicates
  output logic                   busy_o,
  output logic                   done_o,

  output logic [31:0]            rf_we_o,
  output logic [RfAW-1:0]        rf_waddr_o,
  output logic [32*32-1:0]       rf_wdata_o,
  output logic                   pred_we_o,
  output logic [32*7-1:0]        pred_wdata_o
);

  logic busy_d, busy_q;

  logic [31:0]      valid, ds_valid, div_busy, pred;
  logic [32*32-1:0] result, ds_result;
  // The operands come straight from EXEC's latch (registers): gating them with start_i would
  // make the lanes' logic depend on the core's inputs, which simulation re-evaluates more often.
  for (genvar l = 0; l < 32; l++) begin : g_lane
    logic [31:0] a, b, c;
    assign a = opa_i[l*32 +: 32];
    assign b = inst_i.imm_b ? inst_i.imm : opb_i[l*32 +: 32];
    assign c = opc_i[l*32 +: 32];
    simt_fpu u_fpu (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .valid_i     (start_i),
      .op_i        (inst_i.op[3:0]),
      .rm_i        (inst_i.sub[1:0]),
      .cmp_i       (inst_i.sub[3:0]),
      .a_i         (a),
      .b_i         (b),
      .c_i         (c),
      .valid_o     (valid[l]),
      .result_o    (result[l*32 +: 32]),
      .pred_o      (pred[l]),
      .busy_o      (div_busy[l]),
      .ds_valid_o  (ds_valid[l]),
      .ds_result_o (ds_result[l*32 +: 32])
    );
  end

  logic is_ds, is_cmp;
  assign is_ds  = inst_i.op == simt_pkg::OpFDiv || inst_i.op == simt_pkg::OpFSqrt;
  assign is_cmp = inst_i.op == simt_pkg::OpFSetp;

  // Every lane starts together: lane 0 says when the results are there.
  assign done_o = busy_q && (is_ds ? ds_valid[0] : valid[0]);
  always_comb begin
    busy_d = busy_q;
    if (start_i) busy_d = 1'b1;
    if (done_o)  busy_d = 1'b0;
  end
  assign busy_o = busy_q;

  // The write: a register (zero data without a write: the core ORs its units' data), or the
  // predicate fsetp names (rd[2:0]) in the executing lanes.
  always_comb begin
    rf_we_o      = '0;
    rf_waddr_o   = {warp_i, inst_i.rd};
    rf_wdata_o   = '0;
    pred_we_o    = 1'b0;
    pred_wdata_o = pred_i;
    if (done_o && is_cmp) begin
      pred_we_o    = 1'b1;
      pred_wdata_o = simt_sm_pkg::pred_write(pred_i, exec_i, inst_i.rd[2:0], pred);
    end else if (done_o) begin
      rf_we_o    = exec_i;
      rf_wdata_o = is_ds ? ds_result : result;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_q <= 1'b0;
    else         busy_q <= busy_d;
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && busy_q)) else $error("sm fpu: start while busy");
      assert (!(start_i && is_ds && div_busy != '0))
        else $error("sm fpu: a division or square root while the iterative unit is busy");
      assert (!(busy_q && (valid != '0) && (valid != '1)))
        else $error("sm fpu: the lanes' results are not in step");
      assert (!(busy_q && (ds_valid != '0) && (ds_valid != '1)))
        else $error("sm fpu: the lanes' divisions are not in step");
    end
  end
`endif

endmodule
