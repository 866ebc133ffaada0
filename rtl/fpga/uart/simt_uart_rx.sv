// UART receiver, 8N1, LSB first. The line passes a two-flop synchronizer; a low level in idle
// starts a character. Every bit is sampled three times around its centre (clocks half-1,
// half and half+1 of the bit, half = div_i / 2) and decided by majority: the start bit must
// still be low there (a shorter low pulse is a glitch: back to idle), the stop bit high (else
// a framing error: the byte is delivered with frame_err_o and the receiver waits for the line
// to go high again before it looks for the next start bit, so a break yields one byte).
// The decision of the stop bit ends the character half a bit early, which absorbs a baud
// mismatch of up to about 4 %. div_i: clocks per bit, at least 4 (docs/blocks/uart_bridge.md).
module simt_uart_rx (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] div_i,        // clocks per bit (>= 4)
  input  logic        rx_i,         // the line (asynchronous)
  output logic        valid_o,      // one cycle: data_o and frame_err_o hold a character
  output logic [7:0]  data_o,
  output logic        frame_err_o   // the stop bit was low
);

  localparam logic [1:0] StIdle  = 2'd0;
  localparam logic [1:0] StBits  = 2'd1;
  localparam logic [1:0] StBreak = 2'd2;

  logic        sync1_q, sync2_q;
  logic [1:0]  state_d, state_q;
  logic [15:0] cnt_d, cnt_q;       // clock within the bit
  logic [3:0]  bit_d, bit_q;       // 0 start, 1-8 data, 9 stop
  logic [1:0]  smp_d, smp_q;       // the first two samples of the bit
  logic [7:0]  shift_d, shift_q;
  logic        valid_d, valid_q, ferr_d, ferr_q;
  logic [7:0]  data_d, data_q;

  logic [15:0] half;
  logic        vote, decide, last_clk;
  assign half     = {1'b0, div_i[15:1]};
  assign decide   = cnt_q == half + 16'd1;
  assign last_clk = cnt_q == div_i - 16'd1;
  // Majority of the samples at half-1, half and now (half+1).
  assign vote     = (smp_q[0] & smp_q[1]) | (smp_q[0] & sync2_q) | (smp_q[1] & sync2_q);

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    bit_d   = bit_q;
    smp_d   = smp_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    ferr_d  = ferr_q;
    data_d  = data_q;
    unique case (state_q)
      StIdle: begin
        if (!sync2_q) begin
          state_d = StBits;
          cnt_d   = 16'd1;  // the clock that saw the low level is clock 0 of the start bit
          bit_d   = 4'd0;
        end
      end
      StBits: begin
        cnt_d = last_clk ? 16'd0 : cnt_q + 16'd1;
        if (cnt_q == half - 16'd1) smp_d[0] = sync2_q;
        if (cnt_q == half)         smp_d[1] = sync2_q;
        if (decide) begin
          if (bit_q == 4'd0) begin
            if (vote) state_d = StIdle;  // a glitch, not a start bit
          end else if (bit_q == 4'd9) begin
            valid_d = 1'b1;
            data_d  = shift_q;
            ferr_d  = !vote;
            state_d = vote ? StIdle : StBreak;
          end else begin
            shift_d = {vote, shift_q[7:1]};
          end
        end
        if (last_clk) bit_d = bit_q + 4'd1;
      end
      StBreak: begin
        if (sync2_q) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync1_q <= 1'b1;
      sync2_q <= 1'b1;
      state_q <= StIdle;
      cnt_q   <= '0;
      bit_q   <= '0;
      smp_q   <= '0;
      shift_q <= '0;
      valid_q <= 1'b0;
      ferr_q  <= 1'b0;
      data_q  <= '0;
    end else begin
      sync1_q <= rx_i;
      sync2_q <= sync1_q;
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      smp_q   <= smp_d;
      shift_q <= shift_d;
      valid_q <= valid_d;
      ferr_q  <= ferr_d;
      data_q  <= data_d;
    end
  end

  assign valid_o     = valid_q;
  assign data_o      = data_q;
  assign frame_err_o = ferr_q;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (div_i >= 16'd4) else $error("uart_rx: fewer than 4 clocks per bit");
      assert (state_q != StBits || bit_q <= 4'd9) else $error("uart_rx: bit counter beyond the stop bit");
    end
  end
`endif

endmodule
