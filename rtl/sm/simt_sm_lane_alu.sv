// One lane's arithmetic: the ALU operations and setp's comparison of
// ISA.md section 4 (wrapping arithmetic, shift amounts mod 32, signed min/max by default).
// Combinational; the SM core instantiates one per lane.
module simt_sm_lane_alu (
  input  logic [6:0]    op_i,      // simt_pkg::op_e
  input  logic [4:0]    sub_i,     // setp: compare
  input  logic [31:0]   a_i,
  input  logic [31:0]   b_i,       // register or immediate
  output logic [31:0]   result_o,  // add .. maxu, not
  output logic          cmp_o      // setp
);

  // One subtractor serves sub and both orderings (min, max, setp), written out so that the
  // sharing does not depend on which comparisons Yosys's alumacc happens to merge: a < b
  // unsigned is the borrow of a - b; signed, the sign of a - b when a and b have the same
  // sign (no overflow), else a's sign.
  logic signed [31:0] sa;
  logic        [32:0] diff;  // {borrow, a - b}
  logic               lt_s, lt_u;
  assign sa   = a_i;
  assign diff = {1'b0, a_i} - {1'b0, b_i};
  assign lt_u = diff[32];
  assign lt_s = (a_i[31] != b_i[31]) ? a_i[31] : diff[31];

  always_comb begin
    result_o = '0;
    unique case (op_i)
      simt_pkg::OpAdd:  result_o = a_i + b_i;
      simt_pkg::OpSub:  result_o = diff[31:0];
      simt_pkg::OpMul:  result_o = a_i * b_i;
      simt_pkg::OpAnd:  result_o = a_i & b_i;
      simt_pkg::OpOr:   result_o = a_i | b_i;
      simt_pkg::OpXor:  result_o = a_i ^ b_i;
      simt_pkg::OpShl:  result_o = a_i << b_i[4:0];
      simt_pkg::OpShr:  result_o = a_i >> b_i[4:0];
      simt_pkg::OpSra:  result_o = 32'(sa >>> b_i[4:0]);
      simt_pkg::OpMin:  result_o = lt_s ? a_i : b_i;
      simt_pkg::OpMax:  result_o = lt_s ? b_i : a_i;
      simt_pkg::OpMinu: result_o = lt_u ? a_i : b_i;
      simt_pkg::OpMaxu: result_o = lt_u ? b_i : a_i;
      simt_pkg::OpNot:  result_o = ~a_i;
      default:          result_o = '0;
    endcase
  end

  // setp compare codes: eq ne lt le gt ge (signed), ltu leu gtu geu.
  always_comb begin
    cmp_o = 1'b0;
    unique case (sub_i)
      5'd0:    cmp_o = a_i == b_i;
      5'd1:    cmp_o = a_i != b_i;
      5'd2:    cmp_o = lt_s;
      5'd3:    cmp_o = lt_s || a_i == b_i;
      5'd4:    cmp_o = !lt_s && a_i != b_i;
      5'd5:    cmp_o = !lt_s;
      5'd6:    cmp_o = lt_u;
      5'd7:    cmp_o = lt_u || a_i == b_i;
      5'd8:    cmp_o = !lt_u && a_i != b_i;
      5'd9:    cmp_o = !lt_u;
      default: cmp_o = 1'b0;
    endcase
  end

  // The orderings from the subtractor are the comparisons they replace: checked in every
  // simulation, and proven for all operands (scripts/formal.sh).
`ifdef VERILATOR
  always_comb begin
    assert (lt_u == (a_i < b_i) && lt_s == (sa < $signed(b_i)))
      else $error("lane alu: %h vs %h ordered lt_u %b lt_s %b", a_i, b_i, lt_u, lt_s);
  end
`endif
`ifdef FORMAL
  always_comb begin
    assert (lt_u == (a_i < b_i));
    assert (lt_s == (sa < $signed(b_i)));
    assert (result_o == a_i - b_i || op_i != simt_pkg::OpSub);
  end
`endif

endmodule
