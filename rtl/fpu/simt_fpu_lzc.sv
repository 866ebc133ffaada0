// Leading-zero count and normalisation: cnt_o zeros above the most significant one of in_i
// (Width when in_i is zero), norm_o = in_i << cnt_o. ceil(log2(Width)) levels, each testing
// the top 2^k bits of the partly shifted vector for zero and shifting by 2^k if so (the
// count's bit k); the shifter is the counter. Combinational.
module simt_fpu_lzc #(
  parameter int Width = 32,
  localparam int CntW = $clog2(Width + 1)
) (
  input  logic [Width-1:0] in_i,
  output logic [CntW-1:0]  cnt_o,
  output logic [Width-1:0] norm_o,
  output logic             zero_o
);

  localparam int Levels = $clog2(Width);

  logic [Width-1:0]  v;
  logic [Levels-1:0] cnt;

  always_comb begin
    v   = in_i;
    cnt = '0;
    for (int k = Levels - 1; k >= 0; k--) begin
      // The top 2^k bits of v (all of v when 2^k >= Width: only a zero input shifts then).
      if ((v & ~({Width{1'b1}} >> (1 << k))) == '0) begin
        cnt[k] = 1'b1;
        v      = v << (1 << k);
      end
    end
  end

  assign zero_o = in_i == '0;
  assign cnt_o  = zero_o ? CntW'(Width) : CntW'(cnt);
  assign norm_o = v;

endmodule
